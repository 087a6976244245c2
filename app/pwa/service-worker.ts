// The service worker, bundled by modules/service-worker.ts into /sw.js at build time (not part of the app's bundle).
// What it keeps, and why the page is kept with its headers, is decision 0017.
import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst } from 'workbox-strategies'
import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { ExpirationPlugin } from 'workbox-expiration'
import { APP_SHELL_CACHE, APP_SHELL_KEY } from '../utils/pwa/app-shell'

/** The build's scripts, stylesheets and icons with a hash of their content, written in by the module. */
declare const __PRECACHE_MANIFEST__: PrecacheEntry[]

/** The part of the worker's global scope used here (the app's type-check knows the DOM, not the worker's globals). */
interface WorkerScope {
  location: Location
  skipWaiting: () => Promise<void>
  addEventListener: (type: 'message', listener: (event: { data: unknown }) => void) => void
}
const worker = self as unknown as WorkerScope

/** The message workbox-window's `messageSkipWaiting()` sends when the user chooses Reload. */
const SKIP_WAITING = 'SKIP_WAITING'

// A new version waits for the user (the page's "A new version is ready"): it never takes over a tab by itself.
worker.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === SKIP_WAITING) void worker.skipWaiting()
})
// The first visit's page is controlled at once, so its shell and chunks are kept without a second load.
clientsClaim()
cleanupOutdatedCaches()
precacheAndRoute(__PRECACHE_MANIFEST__)

const sameOrigin = (url: URL) => url.origin === worker.location.origin

// Pages are never answered from a precached index.html: that copy would have no headers, so the page would run
// without its Content-Security-Policy. A navigation goes to the network first and keeps the server's answer, headers
// included, as the one app shell (every route is the same client-rendered page). Nothing from /api is kept.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && !url.pathname.startsWith('/api/'),
  new NetworkFirst({
    cacheName: APP_SHELL_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), { cacheKeyWillBeUsed: async () => APP_SHELL_KEY }],
  }),
)

// Build files not precached (the QuickJS WebAssembly, needed only by tools written in the app) are kept the first
// time they are used: their names carry the hash of their content, so a kept copy never goes stale.
registerRoute(
  ({ url }) => sameOrigin(url) && url.pathname.startsWith('/_nuxt/') && !url.pathname.startsWith('/_nuxt/builds/'),
  new CacheFirst({
    cacheName: 'plugboard-build-files',
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 32 })],
  }),
)
