import { computed, readonly } from 'vue'
import { storageStatus } from '~/db/storage-status'

/**
 * Whether chats are saved in IndexedDB or only kept in memory (known once `openDatabase()` has run), and the
 * sentence to show the user when they are not.
 */
export function useStorageStatus() {
  const { t } = useI18n()
  const persistent = computed(() => storageStatus.value.persistent)
  const warning = computed(() => storageStatus.value.persistent
    ? undefined
    : t('storage.memoryOnly', { reason: storageStatus.value.reason ?? t('storage.noIndexedDb') }))

  return { status: readonly(storageStatus), persistent, warning }
}
