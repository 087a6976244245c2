import { closeJobQueue } from '../utils/background-jobs/queue/job-queue'
import { closeMemoryKeyJobs } from '../utils/background-jobs/store/memory-key-jobs'
import { closeJobControl } from '../utils/background-jobs/control/job-control'
import { closeJobStore } from '../utils/background-jobs/store/create-job-store'
import { closeRedisClients, getRedisClient } from '../utils/redis/redis-client'
import { closeSyncNotifier } from '../utils/sync/use-sync'

/**
 * With `NUXT_REDIS_URL`, connect at start-up: rate limits count in memory until the client is ready (they never
 * wait for Redis), so a client made by the first request would let the first requests count apart.
 * When Nitro shuts down: stop the job queue first (running handlers see their signal abort), then the job store's
 * subscriptions, then the shared Redis client they used, so no connection keeps the process alive.
 */
export default defineNitroPlugin((nitroApp) => {
  const redisUrl = String(useRuntimeConfig().redisUrl ?? '').trim()
  if (redisUrl) getRedisClient(redisUrl)
  nitroApp.hooks.hook('close', async () => {
    await closeJobQueue()
    await closeMemoryKeyJobs()
    await closeJobStore()
    await closeJobControl()
    await closeSyncNotifier()
    await closeRedisClients()
  })
})
