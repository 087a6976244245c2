import type { JobStore } from './job-store-types'
import { useJobStore } from './create-job-store'

/**
 * The JobStore background chats use: the server's shared store (embedded, or Redis with `NUXT_REDIS_URL`), so a
 * chat's events can be read from any instance.
 */
export function chatJobStore(): JobStore {
  return useJobStore()
}
