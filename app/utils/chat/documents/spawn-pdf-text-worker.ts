/**
 * Starts a fresh PDF text worker. The `new Worker(new URL(...), { type: 'module' })` shape is what Vite bundles as
 * a same-origin file, so it loads under `worker-src 'self'` (no blob: URL).
 */
export function spawnPdfTextWorker(): Worker {
  return new Worker(new URL('./pdf-text.worker.ts', import.meta.url), { type: 'module', name: 'plugboard-pdf-text' })
}
