/**
 * The cache where the service worker keeps the app's page (app/pwa/service-worker.ts): one entry, under
 * '/', because every route is the same client-rendered page. The server's answer is kept whole, headers included,
 * so a page opened offline still runs under its Content-Security-Policy.
 */
export const APP_SHELL_CACHE = 'plugboard-app-shell'
export const APP_SHELL_KEY = '/'

/**
 * Keeps the page for offline use on the first visit. The worker keeps the page of each navigation it answers, but
 * the first visit's page was loaded before the worker existed: without this, the app would open offline only after
 * a second visit. A no-op when the cache already holds a page or the browser has no Cache Storage.
 */
export async function keepAppShell(): Promise<boolean> {
  if (typeof caches === 'undefined') return false
  const cache = await caches.open(APP_SHELL_CACHE)
  if (await cache.match(APP_SHELL_KEY)) return false
  const response = await fetch(APP_SHELL_KEY, { cache: 'no-store', credentials: 'same-origin' })
  if (response.status !== 200) return false
  await cache.put(APP_SHELL_KEY, response)
  return true
}
