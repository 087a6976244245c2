import { createBullmqJobQueue } from './bullmq-job-queue'
import type { BullmqJobQueueOptions } from './bullmq-job-queue'
import { createInProcessJobQueue } from './in-process-job-queue'
import { DEFAULT_JOB_CONCURRENCY } from './job-concurrency'
import type { JobSlot } from './job-slots'

/** What a handler learns about the run it is given. */
export interface QueuedJobContext {
  /**
   * 1 on the first run. More when the job runs again: after the handler threw (retries with backoff), or on
   * Redis after the instance running it died and another took it over. Above 1, resume from the JobStore's state.
   */
  attempt: number
  /** Aborts when this instance's queue closes: stop soon and throw, so the job is not taken for finished. */
  signal: AbortSignal
  /**
   * The run's slot of the instance's concurrency: release it while the job waits for a person, acquire it again
   * before going on (job-slots.ts). Ending the run gives a held slot back.
   */
  slot: JobSlot
}

/** Runs one job. Throwing means "not done": the job runs again while attempts remain. */
export type QueuedJobHandler<T> = (jobId: string, data: T, context: QueuedJobContext) => Promise<void>

/**
 * Jobs waiting for a worker, in this process or on Redis (BullMQ), behind one interface so the runner does not
 * know which: it enqueues job ids and registers one handler per instance.
 */
export interface JobQueue<T> {
  /**
   * Queues a job. A job id already waiting, running or waiting for a retry is not queued twice. On Redis `data` is
   * stored in Redis: never put a secret (a provider key) in it.
   */
  enqueue: (jobId: string, data: T) => Promise<void>
  /** Starts this instance's worker (once), which runs queued jobs, from any instance, with `handler`. */
  startWorker: (handler: QueuedJobHandler<T>) => void
  /** Stops taking jobs, aborts running handlers' signals, waits for them, and releases connections. */
  close: () => Promise<void>
}

/** Options both queues read. */
export interface JobQueueOptions {
  /**
   * Jobs this instance runs at once.
   * @default DEFAULT_JOB_CONCURRENCY
   */
  concurrency?: number
  /**
   * Runs of a job before it is given up on (the first included).
   * @default 3
   */
  attempts?: number
  /**
   * Wait before the first retry, in ms; each further retry waits twice as long.
   * @default 1000
   */
  backoffMs?: number
}

/** Picks the queue: BullMQ on `redisUrl` when set, else in this process. */
export function createJobQueue<T>(config: JobQueueOptions & Partial<Omit<BullmqJobQueueOptions, 'url'>> & { redisUrl?: string } = {}): JobQueue<T> {
  const redisUrl = config.redisUrl?.trim()
  return redisUrl ? createBullmqJobQueue<T>({ ...config, url: redisUrl }) : createInProcessJobQueue<T>(config)
}

let shared: JobQueue<unknown> | undefined

/** The server's job queue, made on first use from the runtime config (`NUXT_REDIS_URL`; Nitro only). */
export function useJobQueue<T>(): JobQueue<T> {
  const config = useRuntimeConfig()
  // 0 (the default) leaves BullMQ's claim and stalled-check timings at the queue's defaults (30 s); tests shorten them.
  const lockDurationMs = Number(config.jobLockDurationMs) || undefined
  const stalledIntervalMs = Number(config.jobStalledIntervalMs) || undefined
  const concurrency = Math.floor(Number(config.jobConcurrency)) || DEFAULT_JOB_CONCURRENCY
  shared ??= createJobQueue({
    redisUrl: String(config.redisUrl ?? ''),
    concurrency: Math.max(1, concurrency),
    ...(lockDurationMs ? { lockDurationMs } : {}),
    ...(stalledIntervalMs ? { stalledIntervalMs } : {}),
  })
  return shared as JobQueue<T>
}

/** Closes the server's job queue if one was made (Nitro's 'close' hook). */
export async function closeJobQueue(): Promise<void> {
  const closing = shared
  shared = undefined
  await closing?.close()
}
