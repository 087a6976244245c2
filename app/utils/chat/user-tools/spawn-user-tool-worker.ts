/**
 * Starts a fresh user tool worker. The `new Worker(new URL(...), { type: 'module' })` shape is what Vite bundles
 * as a same-origin file, so it loads under `script-src 'self'` (no blob: URL).
 */
export function spawnUserToolWorker(): Worker {
  return new Worker(new URL('./user-tool.worker.ts', import.meta.url), { type: 'module', name: 'plugboard-user-tool' })
}
