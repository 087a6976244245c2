import type { JobFence, JobRecord, JobStore } from '../store/job-store-types'
import { LeaseLostError } from './lease-lost-error'

/** Options of a runner's lease. */
export interface JobLeaseOptions {
  /**
   * How often the runner renews its lease (a fenced heartbeat); a refused renewal ends the run even when it writes
   * nothing else (waiting on a slow model or tool). The worker passes a third of the queue's lock duration.
   * @default 10_000
   */
  renewEveryMs?: number
}

/**
 * A runner's hold on a job: the fencing token its claim got, used for every write it makes. Once another runner
 * claimed the job (a takeover after this one stalled past its queue lock), the store refuses these writes; the first
 * refusal (or a refused renewal) aborts `signal`, and every later write is refused here without asking the store.
 */
export interface JobLease {
  readonly fence: JobFence
  /** Aborts, with a LeaseLostError, when the lease is found lost. */
  readonly signal: AbortSignal
  readonly lost: boolean
  appendEvent: (event: unknown) => Promise<number>
  updateJob: (patch: Partial<JobRecord>) => Promise<JobRecord | undefined>
  /** Stops renewing (the run ended). */
  release: () => void
}

/**
 * Claims `jobId` for a run (bumping its fencing token, merging `patch`); undefined when the job is gone. The lease
 * renews itself until released.
 */
export async function claimJobLease(store: JobStore, jobId: string, patch: Partial<JobRecord>, options: JobLeaseOptions = {}): Promise<{ lease: JobLease, record: JobRecord } | undefined> {
  const record = await store.claimJob(jobId, patch)
  if (!record || record.runToken === undefined) return undefined
  const fence: JobFence = { token: record.runToken }
  const controller = new AbortController()
  const refused = (error: unknown): never => {
    if (LeaseLostError.isInstance(error) && !controller.signal.aborted) {
      console.warn(`[jobs] ${error.message}`)
      controller.abort(error)
    }
    throw error
  }
  const guard = () => {
    if (controller.signal.aborted) throw controller.signal.reason
  }
  const renewal = setInterval(() => {
    if (controller.signal.aborted) return
    store.updateJob(jobId, { heartbeatAt: Date.now() }, fence).then(() => {}, (error: unknown) => {
      // Redis being away is not a lost lease: the next renewal or write tells.
      if (LeaseLostError.isInstance(error)) refused(error)
    }).catch(() => {})
  }, Math.max(10, options.renewEveryMs ?? 10_000))
  renewal.unref?.()
  const lease: JobLease = {
    fence,
    signal: controller.signal,
    get lost() { return controller.signal.aborted },
    async appendEvent(event) {
      guard()
      return store.appendEvent(jobId, event, fence).catch(refused)
    },
    async updateJob(jobPatch) {
      guard()
      return store.updateJob(jobId, jobPatch, fence).catch(refused)
    },
    release: () => clearInterval(renewal),
  }
  return { lease, record }
}
