import type { JobRecord, JobStatus } from './job-store-types'

/** Statuses after which a job appends no more events and only waits to be read, then forgotten. */
export const FINISHED_JOB_STATUSES: readonly JobStatus[] = ['done', 'failed', 'stopped', 'interrupted']

/** Whether a job with this status has finished (its data may be dropped after `finishedJobTtlMs`). */
export function isFinishedJobStatus(status: JobStatus | undefined): boolean {
  return status !== undefined && FINISHED_JOB_STATUSES.includes(status)
}

/** Whether `job` has finished. */
export function isFinishedJob(job: Pick<JobRecord, 'status'> | undefined): boolean {
  return isFinishedJobStatus(job?.status)
}

/**
 * How much a store keeps, so that neither memory nor Redis grows without bound. Both stores read the same
 * options, so a job behaves alike embedded or on Redis.
 */
export interface JobRetentionOptions {
  /**
   * Events kept per job: past it the oldest are dropped. A reader who asks for dropped ids gets the oldest kept
   * one first, so the gap shows as a first id above `afterId + 1`.
   * @default 20_000
   */
  maxEventsPerJob?: number
  /**
   * How long a finished job (record and events) is kept after its last change, in ms.
   * @default 3_600_000 (1 h)
   */
  finishedJobTtlMs?: number
  /**
   * How long any job that nobody touches is kept, in ms: a runner that vanished without marking its job, or a
   * job paused for a browser that never came back, must not stay forever.
   * @default 86_400_000 (24 h)
   */
  idleJobTtlMs?: number
}

export type JobRetention = Required<JobRetentionOptions>

/** The options with their defaults filled in; nonsense (0, negative, NaN) falls back to the default. */
export function resolveJobRetention(options: JobRetentionOptions = {}): JobRetention {
  return {
    maxEventsPerJob: positiveInteger(options.maxEventsPerJob, 20_000),
    finishedJobTtlMs: positiveInteger(options.finishedJobTtlMs, 60 * 60 * 1000),
    idleJobTtlMs: positiveInteger(options.idleJobTtlMs, 24 * 60 * 60 * 1000),
  }
}

function positiveInteger(value: number | undefined, fallback: number): number {
  return Number.isSafeInteger(value) && value! > 0 ? value! : fallback
}
