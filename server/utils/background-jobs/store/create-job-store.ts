import { createStorage } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import { getRedisClient } from '../../redis/redis-client'
import type { JobRetentionOptions } from './job-retention'
import type { JobStore } from './job-store-types'
import { createMemoryJobStore } from './memory-job-store'
import { createRedisJobStore } from './redis-job-store'

/** The directory the embedded store keeps job records in, under `jobs/` (`.data/` is git-ignored). */
export const JOB_DATA_DIR = '.data'

/** What picks the store: the runtime config's `redisUrl` (`NUXT_REDIS_URL`), and where the embedded one keeps records. */
export interface JobStoreConfig extends JobRetentionOptions {
  /** Redis when set, else the embedded store. */
  redisUrl?: string
  /**
   * The embedded store's directory (records go to `<dataDir>/jobs/<id>`); `false` keeps nothing on disk (tests).
   * @default JOB_DATA_DIR
   */
  dataDir?: string | false
}

/**
 * The JobStore for this configuration: on Redis (the instance's shared client) when `redisUrl` is set, so several
 * instances share jobs; otherwise in this process, with job records under `dataDir` so a restart marks the jobs
 * it cut 'interrupted'.
 */
export function createJobStore(config: JobStoreConfig = {}): JobStore {
  const redisUrl = config.redisUrl?.trim()
  if (redisUrl) return createRedisJobStore({ ...config, redis: getRedisClient(redisUrl) })
  const dataDir = config.dataDir ?? JOB_DATA_DIR
  const storage = dataDir === false ? undefined : createStorage({ driver: fsDriver({ base: dataDir }) })
  return createMemoryJobStore({ ...config, storage })
}

let shared: JobStore | undefined

/** The server's JobStore, made on first use from the runtime config (Nitro only). */
export function useJobStore(): JobStore {
  shared ??= createJobStore({ redisUrl: String(useRuntimeConfig().redisUrl ?? '') })
  return shared
}

/** Closes the server's JobStore if one was made (Nitro's 'close' hook); the next `useJobStore()` makes a new one. */
export async function closeJobStore(): Promise<void> {
  const closing = shared
  shared = undefined
  await closing?.close()
}
