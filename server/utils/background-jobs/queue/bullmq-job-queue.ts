import { setMaxListeners } from 'node:events'
import { Queue, Worker } from 'bullmq'
import { Redis } from 'ioredis'
import { redactUrl } from '../../redis/redis-client'
import { DEFAULT_JOB_CONCURRENCY } from './job-concurrency'
import { createJobSlotPool } from './job-slots'
import type { JobQueue, JobQueueOptions, QueuedJobHandler } from './job-queue'
import { assertQueueJobId } from '../store/queue-job-id'

/** Options of the queue on Redis. */
export interface BullmqJobQueueOptions extends JobQueueOptions {
  /** The Redis URL (`NUXT_REDIS_URL`). */
  url: string
  /** @default 'plugboard-jobs' */
  name?: string
  /** Prefix of BullMQ's keys. @default 'plugboard:bull' */
  prefix?: string
  /**
   * How long a worker's claim on a job lasts without renewal (renewed every half of it while the instance lives):
   * how soon a dead instance's job is free to be taken over.
   * @default 30_000
   */
  lockDurationMs?: number
  /**
   * How often workers look for jobs whose claim lapsed (stalled) and put them back in the queue. Give every
   * instance the same value: a check holds the other instances' checks off for the checker's interval.
   * @default 30_000
   */
  stalledIntervalMs?: number
  /** Takeovers a job may have before it is failed (a job that kills every instance must stop somewhere). @default 2 */
  maxStalledCount?: number
}

interface QueuedPayload<T> {
  jobId: string
  data: T
}

/**
 * The queue on Redis (BullMQ): any instance enqueues, any instance's worker runs. A job whose instance dies stops
 * renewing its lock; another worker's stalled check puts it back in the queue and it runs again with
 * `attempt` > 1. A handler that throws is retried with exponential backoff.
 */
export function createBullmqJobQueue<T>(options: BullmqJobQueueOptions): JobQueue<T> {
  const name = options.name ?? 'plugboard-jobs'
  const prefix = options.prefix ?? 'plugboard:bull'
  const attempts = options.attempts ?? 3
  // BullMQ's workers block on Redis and need commands that wait out a reconnection rather than fail.
  const connection = new Redis(options.url, { maxRetriesPerRequest: null, connectionName: 'plugboard-queue' })
  let reported = false
  connection.on('error', (error: Error) => {
    if (!reported) console.error(`[job-queue] ${redactUrl(options.url)}: ${error.message} (retrying in the background)`)
    reported = true
  })
  connection.on('ready', () => { reported = false })
  const closing = new AbortController()
  // Every running job listens to it (one listener each): not a leak, so no warning past Node's default of 10.
  setMaxListeners(0, closing.signal)
  let queue: Queue<QueuedPayload<T>> | undefined
  let worker: Worker<QueuedPayload<T>> | undefined

  // Our slots limit running chats; BullMQ's own concurrency counts parked ones too (they stay active jobs, their
  // lock renewed), so it is raised by one for each parked run: the worker fetches one more job in its place.
  const concurrency = options.concurrency ?? DEFAULT_JOB_CONCURRENCY
  const slots = createJobSlotPool(concurrency)
  let parked = 0

  function setParked(change: number): void {
    parked += change
    if (!worker || closing.signal.aborted) return
    worker.concurrency = concurrency + parked
    // BullMQ's loop waits for one of its active jobs to end before it looks at its concurrency again, and a parked
    // job may not end for minutes: pause and resume is BullMQ's own way to wake the loop so it fetches now.
    if (change > 0) {
      void worker.pause(true).then(() => {
        if (!closing.signal.aborted) return worker?.resume()
      })
    }
  }

  function startWorker(handler: QueuedJobHandler<T>): void {
    if (worker) throw new Error('This job queue already has a worker.')
    worker = new Worker<QueuedPayload<T>>(name, async (job, _token, signal) => {
      const jobSignal = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal
      // At once unless a parked run took the slot back just now (it goes first).
      if (!(await slots.take(jobSignal))) throw new Error('This instance is shutting down; the job runs again.')
      const slot = slots.slotFor({ onRelease: () => setParked(1), onAcquire: () => setParked(-1) })
      try {
        await handler(job.data.jobId, job.data.data, { attempt: Math.max(1, job.attemptsStarted), signal: jobSignal, slot })
      }
      finally {
        slot.end()
      }
    }, {
      connection,
      prefix,
      concurrency,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 2,
    })
    worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= attempts) console.error('[job-queue]', new Error(`Job ${job.data.jobId} failed ${job.attemptsMade} times; giving up.`, { cause: error }))
    })
    worker.on('error', error => console.error('[job-queue]', error))
  }

  return {
    async enqueue(jobId, data) {
      assertQueueJobId(jobId)
      if (closing.signal.aborted) throw new Error('The job queue is closed.')
      queue ??= new Queue<QueuedPayload<T>>(name, { connection, prefix })
      // The job id is BullMQ's too: adding an id that is still waiting or running is a no-op.
      await queue.add('run', { jobId, data }, {
        jobId,
        attempts,
        backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
        // Finished jobs leave the queue at once (their record lives in the JobStore), so Redis does not fill up.
        removeOnComplete: true,
        removeOnFail: true,
      })
    },
    startWorker,
    async close() {
      closing.abort()
      await worker?.close()
      await queue?.close()
      await connection.quit().catch(() => connection.disconnect())
    },
  }
}
