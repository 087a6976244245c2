import { useDatabase } from '../database/use-database'
import { createSyncBlobStore } from './sync-blob-store'
import type { SyncBlobStore } from './sync-blob-store'
import { userError } from '../http/user-error'

let store: SyncBlobStore | undefined

/** The instance's store of synced files, on its one database (opened on first use). */
export function useSyncBlobStore(): SyncBlobStore {
  store ??= createSyncBlobStore(useDatabase().catch((error: Error) => {
    throw userError(503, 'Service Unavailable', 'server.databaseUnavailable', { reason: error.message })
  }))
  return store
}
