import { randomUUID } from 'node:crypto'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createInProcessJobQueue } from '../queue/in-process-job-queue'
import type { JobLimits } from '../queue/job-admission'
import type { JobQueue } from '../queue/job-queue'
import { isFinishedJob } from './job-retention'
import type { JobRecord, JobStore } from './job-store-types'
import { isRunningHere } from '../runner/running-jobs'
import { createChatJob, runChatJob } from '../runner/stream-handler'
import type { ChatJobSpec } from '../runner/stream-handler'
import { createUserKeyChatModel } from '../runner/user-key-chat-model'
import type { UserKeyChatModelOptions } from '../runner/user-key-chat-model'
import { jobEndingFailure } from '../runner/job-ending'

/** What a tab sees when the instance holding its key went away (its reply cannot go on elsewhere). */
export const MEMORY_KEY_INTERRUPTION = 'This reply ran on your own key, which only the server instance that started it held in memory, and that instance stopped. No other instance has your key, so none could go on with it.'

/** Replies on users' own keys one instance holds at once (running or waiting); more are refused (503). */
export const MAX_MEMORY_KEY_JOBS = 200

/** This process, as the owner of the jobs whose keys it holds. */
export const memoryKeyOwnerId = randomUUID()

interface HeldJob {
  store: JobStore
  model: UserKeyChatModelOptions
  waitTimeoutMs?: number
}

/** The keys, by job id: only here, only while the job runs. */
const held = new Map<string, HeldJob>()
let queue: JobQueue<{ kind: 'chat' }> | undefined

export interface MemoryKeyJobOptions {
  /** How often the runner says it is alive, in ms; another instance interrupts the job after 3 missed beats. @default 10_000 */
  heartbeatMs?: number
  /** How long a call waits for a person (`NUXT_JOB_WAIT_TIMEOUT_MS`). @default DEFAULT_JOB_WAIT_TIMEOUT_MS */
  waitTimeoutMs?: number
  /** The session's and client's caps (job-admission.ts): past them the job is refused with JobLimitError. */
  limits?: JobLimits
}

/**
 * Starts a chat on the user's own key in this process: the record (in the shared store, so any instance serves its
 * stream) says `keyInMemory` and names this process as owner; the key stays in this module's memory until the run
 * ends. It never goes through the shared queue, whose data lives in Redis.
 */
export async function startMemoryKeyChatJob(store: JobStore, spec: ChatJobSpec, model: UserKeyChatModelOptions, options: MemoryKeyJobOptions = {}): Promise<JobRecord> {
  if (held.size >= MAX_MEMORY_KEY_JOBS) throw new Error('Too many replies on users\' own keys are running on this server; try again in a moment.')
  const created = await createChatJob(store, spec, options.limits)
  const job = (await store.updateJob(created.id, { keyInMemory: true, ownerId: memoryKeyOwnerId, heartbeatAt: Date.now() }))!
  held.set(job.id, { store, model, waitTimeoutMs: options.waitTimeoutMs })
  await localQueue(options.heartbeatMs ?? 10_000).enqueue(job.id, { kind: 'chat' })
  return job
}

function localQueue(heartbeatMs: number): JobQueue<{ kind: 'chat' }> {
  if (queue) return queue
  // One run each: a retry would need the key after a failure, and there is nothing to take over from.
  queue = createInProcessJobQueue<{ kind: 'chat' }>({ attempts: 1 })
  queue.startWorker(async (jobId, _data, { signal, slot }) => {
    const job = held.get(jobId)
    if (!job) return
    const beat = setInterval(() => {
      job.store.updateJob(jobId, { heartbeatAt: Date.now() }).catch(() => {})
    }, heartbeatMs)
    try {
      await runChatJob(job.store, jobId, { signal, slot, waitTimeoutMs: job.waitTimeoutMs, ownerId: memoryKeyOwnerId, model: state => createUserKeyChatModel({ ...job.model, model: state.modelName }) })
    }
    catch (error) {
      // This process shuts down: with it goes the key, so the reply ends here, kept as far as it got.
      if (signal.aborted) await interruptJob(job.store, jobId, MEMORY_KEY_INTERRUPTION).catch(() => {})
      else throw error
    }
    finally {
      clearInterval(beat)
      held.delete(jobId)
    }
  })
  return queue
}

/** Ends a job no runner will finish: its record interrupted with `message`, its stream closed with a `fail`. */
async function interruptJob(store: JobStore, jobId: string, message: string): Promise<void> {
  const job = await store.updateJob(jobId, { status: 'interrupted', error: message })
  const steps = (job?.state as { stepsDone?: number } | undefined)?.stepsDone ?? 0
  await store.appendEvent(jobId, { type: 'fail', steps, error: jobEndingFailure(message) } satisfies LoopEvent)
}

/**
 * A job on a user's key whose owner went quiet (no heartbeat for `staleAfterMs`) is interrupted with a clear message
 * instead of waiting for a takeover that cannot happen. Returns the job as it is now.
 */
export async function interruptIfOrphaned(store: JobStore, job: JobRecord, staleAfterMs: number): Promise<JobRecord> {
  if (!job.keyInMemory || isFinishedJob(job) || isRunningHere(job.id) || held.has(job.id)) return job
  if (Date.now() - (job.heartbeatAt ?? job.updatedAt) < staleAfterMs) return job
  await interruptJob(store, job.id, MEMORY_KEY_INTERRUPTION)
  return (await store.getJob(job.id)) ?? job
}

/** Stops this process's runs on users' keys (Nitro's 'close' hook): they end interrupted, their keys forgotten. */
export async function closeMemoryKeyJobs(): Promise<void> {
  const closing = queue
  queue = undefined
  await closing?.close()
  held.clear()
}
