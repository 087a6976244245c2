/// <reference types="vite-plugin-pwa/vanillajs" />
import { shallowRef } from 'vue'
import { registerSW } from 'virtual:pwa-register'
import { keepAppShell } from '~/utils/pwa/app-shell'

/** What the page knows of the service worker: whether a new version waits, and how to switch to it. */
export interface AppUpdate {
  /** A new version is installed and waits for the user (ChatAppUpdateNotice). */
  needRefresh: Readonly<ReturnType<typeof shallowRef<boolean>>>
  /** Activates the waiting version; the page reloads once it controls it. */
  reload: () => Promise<void>
}

/** How often an open tab asks the server whether a new version was deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000

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
      const update = registerSW({
        immediate: false,
        onNeedRefresh: () => (needRefresh.value = true),
        // The reload happens on 'controllerchange' below, which also covers a page the worker began to control
        // after it loaded (the first visit), where the library would not reload.
        onNeedReload: () => {},
        onRegisteredSW(_url, registration) {
          keepAppShell().catch(() => {
            // Cache Storage refused (private mode, quota): the app still works online
          })
          if (!registration) return
          const check = () => {
            if (navigator.onLine && !registration.installing) registration.update().catch(() => {})
          }
          setInterval(check, UPDATE_CHECK_MS)
          window.addEventListener('online', check)
        },
      })
      reload = async () => {
        navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true })
        await update(true)
      }
    }
    return { provide: { appUpdate: { needRefresh, reload } satisfies AppUpdate } }
  },
})
