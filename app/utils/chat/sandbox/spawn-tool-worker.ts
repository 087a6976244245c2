/**
 * Starts a fresh tool sandbox worker. The `new Worker(new URL(...), { type: 'module' })` shape is what Vite
 * recognises: it bundles the worker as its own same-origin file, so it loads under `script-src 'self'`
 * (no blob: URL, no eval).
 */
export function spawnToolWorker(): Worker {
  return new Worker(new URL('./tool-sandbox.worker.ts', import.meta.url), { type: 'module', name: 'plugboard-tool-sandbox' })
}
