import { useLocalStorage } from '@vueuse/core'

/** Where the choice is kept (this browser, all tabs). */
export const RUN_ON_SERVER_STORAGE_KEY = 'plugboard:run-on-server:v1'

/**
 * "Keep replies running on the server" for chats on the server's key: on unless the user turned it off in
 * Settings. When on, closing or reloading the tab does not stop a reply.
 */
export function useRunOnServer() {
  return useLocalStorage(RUN_ON_SERVER_STORAGE_KEY, true, { listenToStorageChanges: true })
}
