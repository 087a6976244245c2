/**
 * Starts the highlighting worker, or returns null where there is no Web Worker (the server, jsdom). The
 * `new Worker(new URL(...), { type: 'module' })` shape is what Vite bundles as a same-origin file, so it loads under
 * `worker-src 'self'` (no blob: URL).
 */
export function spawnHighlightWorker(): Worker | null {
  if (typeof Worker !== 'function' || typeof window === 'undefined') return null
  return new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module', name: 'plugboard-highlight' })
}
