import { createStorage } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import { JOB_DATA_DIR } from '../background-jobs/store/create-job-store'
import { useDatabase } from '../database/use-database'
import { getRedisClient } from '../redis/redis-client'
import { createDatabaseWorkflowStore } from './database-workflow-store'
import { moveLegacyWorkflows } from './legacy-workflows'
import type { WorkflowStore } from './workflow-store'
import { userError } from '../http/user-error'

let shared: WorkflowStore | undefined

/**
 * The server's workflows, in its database (Nitro only). The first use moves any workflows an older version kept
 * under `.data` or in Redis into it. While the database cannot be opened, every use answers 503.
 */
export function useWorkflowStore(): WorkflowStore {
  if (!shared) {
    const redisUrl = String(useRuntimeConfig().redisUrl ?? '').trim()
    const ready = useDatabase().then(
      async (db) => {
        const legacy = { storage: createStorage({ driver: fsDriver({ base: JOB_DATA_DIR }) }), redis: redisUrl ? getRedisClient(redisUrl) : undefined }
        const moved = await moveLegacyWorkflows(createDatabaseWorkflowStore(db), legacy).catch((error: Error) => {
          console.error(`[workflows] older workflows stay where they were until the next start: ${error.message}`)
          return 0
        })
        if (moved) console.info(`[workflows] moved ${moved} workflow(s) into the database`)
        return db
      },
      (error: Error) => {
        throw userError(503, 'Service Unavailable', 'server.databaseUnavailable', { reason: error.message })
      },
    )
    shared = createDatabaseWorkflowStore(ready)
  }
  return shared
}
