import { shallowRef } from 'vue'

/** Where chats are kept. `persistent: false` means in memory only, with the reason IndexedDB could not be used. */
export interface StorageStatus {
  persistent: boolean
  reason?: string
}

/**
 * Set by `openDatabase()`. Optimistic until then so the UI does not flash a warning on every start.
 * Read it through `useStorageStatus()`.
 */
export const storageStatus = shallowRef<StorageStatus>({ persistent: true })
