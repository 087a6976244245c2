import { useDatabase } from '../database/use-database'
import { getRedisClient } from '../redis/redis-client'
import { createSyncNotifier } from './sync-notifier'
import type { SyncNotifier } from './sync-notifier'
import { createSyncStore } from './sync-store'
import type { SyncStore } from './sync-store'
import { userError } from '../http/user-error'

let store: SyncStore | undefined
let notifier: SyncNotifier | undefined

/** The instance's sync store, on its one database (opened on first use). */
export function useSyncStore(): SyncStore {
  store ??= createSyncStore(useDatabase().catch((error: Error) => {
    throw userError(503, 'Service Unavailable', 'server.databaseUnavailable', { reason: error.message })
  }))
  return store
}

/** The instance's notifier: across instances through `NUXT_REDIS_URL`'s pub/sub when set, else in-process. */
export function useSyncNotifier(): SyncNotifier {
  if (!notifier) {
    const redisUrl = String(useRuntimeConfig().redisUrl ?? '').trim()
    notifier = createSyncNotifier(redisUrl ? getRedisClient(redisUrl) : undefined)
  }
  return notifier
}

/** Ends the instance's Redis subscription for sync (at shutdown, before the shared client closes). */
export async function closeSyncNotifier(): Promise<void> {
  const closing = notifier
  notifier = undefined
  await closing?.close()
}

/** Whether this server offers sync (`NUXT_SYNC`): off by default, since it keeps a copy of every chat. */
export function syncEnabled(): boolean {
  return ['1', 'true', 'on'].includes(String(useRuntimeConfig().sync ?? '').trim().toLowerCase())
}
