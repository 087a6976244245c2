import { closeJobQueue } from '../utils/background-jobs/job-queue'
import { closeJobStore } from '../utils/background-jobs/create-job-store'
import { closeRedisClients } from '../utils/redis/redis-client'

/**
 * When Nitro shuts down: stop the job queue first (running handlers see their signal abort), then the job store's
 * subscriptions, then the shared Redis client they both used, so no connection keeps the process alive.
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('close', async () => {
    await closeJobQueue()
    await closeJobStore()
    await closeRedisClients()
  })
})
