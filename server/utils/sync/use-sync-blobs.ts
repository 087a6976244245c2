import { useDatabase } from '../database/use-database'
import { createSyncBlobStore } from './sync-blob-store'
import type { SyncBlobStore } from './sync-blob-store'

let store: SyncBlobStore | undefined

/** The instance's store of synced files, on its one database (opened on first use). */
export function useSyncBlobStore(): SyncBlobStore {
  store ??= createSyncBlobStore(useDatabase().catch((error: Error) => {
    throw createError({ statusCode: 503, statusMessage: 'Service Unavailable', message: `The server's database is unavailable: ${error.message}` })
  }))
  return store
}
