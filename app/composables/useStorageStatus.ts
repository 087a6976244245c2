import { computed, readonly } from 'vue'
import { storageStatus } from '~/db/storage-status'

/**
 * Whether chats are saved in IndexedDB or only kept in memory (known once `openDatabase()` has run), and the
 * sentence to show the user when they are not.
 */
export function useStorageStatus() {
  const persistent = computed(() => storageStatus.value.persistent)
  const warning = computed(() => storageStatus.value.persistent
    ? undefined
    : `Chats are kept in memory only (${storageStatus.value.reason ?? 'IndexedDB cannot be used'}): they will be lost when you close the tab.`)

  return { status: readonly(storageStatus), persistent, warning }
}
