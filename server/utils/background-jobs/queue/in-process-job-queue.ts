import { setMaxListeners } from 'node:events'
import { DEFAULT_JOB_CONCURRENCY } from './job-concurrency'
import { createJobSlotPool } from './job-slots'
import type { JobQueue, JobQueueOptions, QueuedJobHandler } from './job-queue'
import { assertQueueJobId } from '../store/queue-job-id'

interface QueuedJob<T> {
  jobId: string
  data: T
  attempt: number
}

/**
 * The embedded queue: jobs run in this process, at most `concurrency` at once (a run parked on a person's answer
 * does not count: it gave its slot back), retried with exponential backoff. Nothing survives the process; the
 * embedded JobStore marks the jobs a restart cut 'interrupted'.
 */
export function createInProcessJobQueue<T>(options: JobQueueOptions = {}): JobQueue<T> {
  const concurrency = options.concurrency ?? DEFAULT_JOB_CONCURRENCY
  const attempts = options.attempts ?? 3
  const backoffMs = options.backoffMs ?? 1000
  const waiting: QueuedJob<T>[] = []
  // Waiting, running or between retries: enqueueing one of these again is a no-op, as on BullMQ.
  const known = new Set<string>()
  const running = new Set<Promise<void>>()
  const slots = createJobSlotPool(concurrency, () => pump())
  const retryTimers = new Set<ReturnType<typeof setTimeout>>()
  const closing = new AbortController()
  // Every running job listens to it (one listener each): not a leak, so no warning past Node's default of 10.
  setMaxListeners(0, closing.signal)
  let handler: QueuedJobHandler<T> | undefined

  function pump(): void {
    while (handler && !closing.signal.aborted && waiting.length > 0 && slots.tryTake()) {
      const run = runOnce(handler, waiting.shift()!)
      running.add(run)
      void run.finally(() => running.delete(run))
    }
  }

  async function runOnce(run: QueuedJobHandler<T>, job: QueuedJob<T>): Promise<void> {
    const slot = slots.slotFor()
    try {
      await run(job.jobId, job.data, { attempt: job.attempt, signal: closing.signal, slot })
      known.delete(job.jobId)
    }
    catch (error) {
      if (closing.signal.aborted) return
      if (job.attempt >= attempts) {
        known.delete(job.jobId)
        console.error('[job-queue]', new Error(`Job ${job.jobId} failed ${job.attempt} times; giving up.`, { cause: error }))
        return
      }
      const timer = setTimeout(() => {
        retryTimers.delete(timer)
        waiting.push({ ...job, attempt: job.attempt + 1 })
        pump()
      }, backoffMs * 2 ** (job.attempt - 1))
      retryTimers.add(timer)
    }
    finally {
      slot.end()
    }
  }

  return {
    async enqueue(jobId, data) {
      assertQueueJobId(jobId)
      if (closing.signal.aborted) throw new Error('The job queue is closed.')
      if (known.has(jobId)) return
      known.add(jobId)
      waiting.push({ jobId, data, attempt: 1 })
      // Soon, not now: the caller finishes what it was doing (saving the job record) before the handler starts.
      setImmediate(pump)
    },
    startWorker(workerHandler) {
      if (handler) throw new Error('This job queue already has a worker.')
      handler = workerHandler
      setImmediate(pump)
    },
    async close() {
      closing.abort()
      for (const timer of retryTimers) clearTimeout(timer)
      retryTimers.clear()
      waiting.length = 0
      await Promise.allSettled([...running])
    },
  }
}
