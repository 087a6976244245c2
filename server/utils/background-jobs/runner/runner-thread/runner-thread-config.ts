import type { OpenRouterPolicy } from '../../../openrouter-policy'

/**
 * What a runner thread needs from the runtime config, as plain data (a thread has no Nitro): read once by the main
 * thread and handed over as `workerData`. The server's key stays in memory, as in the main thread.
 */
export interface RunnerThreadConfig {
  redisUrl: string
  apiKey: string
  openrouterBaseUrl: string
  policy: OpenRouterPolicy
  appUrl: string
  appTitle: string
  /** Chats this thread runs at once (`NUXT_JOB_CONCURRENCY`); parked ones do not count. */
  concurrency: number
  /** How long a chat waits for a person (`NUXT_JOB_WAIT_TIMEOUT_MS`). */
  waitTimeoutMs: number
  lockDurationMs?: number
  stalledIntervalMs?: number
  /** How often a run renews its claim on its job (a third of the lock). */
  leaseRenewMs: number
  /** This instance, as a job record's owner. */
  ownerId: string
}
