import { useLocalStorage } from '@vueuse/core'

/** Where the choice is kept (this browser, all tabs). */
export const KEEP_RUNNING_OWN_KEY_STORAGE_KEY = 'plugboard:keep-running-own-key:v1'

/**
 * "Keep running when I close the tab" for chats on the user's own OpenRouter key: off unless the user turns it on
 * in Settings. When on, each reply is sent to this app's server with the key, which holds it only in the memory of
 * the instance running that reply (never stored or logged), so closing or reloading the tab does not stop it.
 */
export function useKeepRunningWithOwnKey() {
  return useLocalStorage(KEEP_RUNNING_OWN_KEY_STORAGE_KEY, false, { listenToStorageChanges: true })
}
