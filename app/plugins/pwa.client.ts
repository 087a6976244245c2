import { shallowRef } from 'vue'
import type { Workbox } from 'workbox-window'
import { keepAppShell } from '~/utils/pwa/app-shell'
import { toolPluginsReady } from '~/utils/chat/registry/tool-plugins-ready'
import { deferredMountsDone } from '~/utils/chat/message-list/deferred-mounts'

/** What the page knows of the service worker: whether a new version waits, and how to switch to it. */
export interface AppUpdate {
  /** A new version is installed and waits for the user (ChatAppUpdateNotice). */
  needRefresh: Readonly<ReturnType<typeof shallowRef<boolean>>>
  /** Activates the waiting version; the page reloads once it controls it. */
  reload: () => Promise<void>
}

/** How often an open tab asks the server whether a new version was deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000

/** Resolves in the browser's next idle period (or after a timer where there is none). */
const nextIdle = () => new Promise<void>((resolve) => {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => resolve(), { timeout: 2_000 })
  else setTimeout(resolve, 0)
})

/** Resolves once the page is ready for input (what it waits for before it says so) and the browser is idle. */
async function pageSettled(): Promise<void> {
  await Promise.all([toolPluginsReady(), deferredMountsDone()])
  await nextIdle()
}

/**
 * Registers the service worker (the app shell and its scripts kept for offline use) once the page has loaded, so its
 * downloads do not compete with the first screen's. Not in `nuxt dev`: the module builds no worker there.
 */
export default defineNuxtPlugin({
  name: 'plugboard:pwa',
  parallel: true,
  setup() {
    const needRefresh = shallowRef(false)
    let reload = async () => {}
    if (!import.meta.dev && 'serviceWorker' in navigator) {
      let workbox: Workbox | undefined
      // Its own chunk, fetched once the page is mounted, ready for input and idle: nothing of it is needed for the
      // first screen, so it neither delays that screen nor adds to its bytes.
      onNuxtReady(() => pageSettled().then(() => import('workbox-window')).then(({ Workbox }) => {
        workbox = new Workbox('/sw.js', { scope: '/' })
        // Also when the waiting version is one this tab did not install (a deploy found by another tab or by the
        // hourly check): the user is asked either way.
        workbox.addEventListener('waiting', () => (needRefresh.value = true))
        // Waits for the page's load event, so the worker's downloads do not compete with the first screen's.
        return workbox.register()
      }).then((registration) => {
        keepAppShell().catch(() => {
          // Cache Storage refused (private mode, quota): the app still works online
        })
        if (!registration) return
        const check = () => {
          if (navigator.onLine && !registration.installing) registration.update().catch(() => {})
        }
        setInterval(check, UPDATE_CHECK_MS)
        window.addEventListener('online', check)
      }).catch(() => {
        // No worker (blocked by the browser, an insecure origin, the chunk not loaded): the app works online
      }))
      reload = async () => {
        if (!workbox) return
        // Any change of controller reloads, also to a version this tab did not install (Workbox's "external").
        workbox.addEventListener('controlling', () => window.location.reload())
        workbox.messageSkipWaiting()
      }
    }
    return { provide: { appUpdate: { needRefresh, reload } satisfies AppUpdate } }
  },
})
