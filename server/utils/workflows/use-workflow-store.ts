import { createStorage } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import { JOB_DATA_DIR } from '../background-jobs/store/create-job-store'
import { getRedisClient } from '../redis/redis-client'
import { createRedisWorkflowStore, createStorageWorkflowStore } from './workflow-store'
import type { WorkflowStore } from './workflow-store'

let shared: WorkflowStore | undefined

/** The server's workflows, beside its jobs: on Redis with `NUXT_REDIS_URL`, else under `.data/workflows` (Nitro only). */
export function useWorkflowStore(): WorkflowStore {
  if (!shared) {
    const redisUrl = String(useRuntimeConfig().redisUrl ?? '').trim()
    shared = redisUrl ? createRedisWorkflowStore(getRedisClient(redisUrl)) : createStorageWorkflowStore(createStorage({ driver: fsDriver({ base: JOB_DATA_DIR }) }))
  }
  return shared
}
