import type { LoopEvent } from '#shared/loop/loop-event'
import type { JobRecord } from '../store/job-store-types'

/**
 * The last event of a job that ended without one (its process restarted, or Stop reached a job nobody ran), so a
 * tab reading its stream records a clean end, keeping the partial reply it already holds, instead of waiting
 * forever: stopped → `finish` 'aborted'; interrupted or failed → `fail` with the record's message; done → `finish`.
 */
export function endingEventFor(job: Pick<JobRecord, 'status' | 'error'>, steps = 0): LoopEvent | undefined {
  switch (job.status) {
    case 'stopped': return { type: 'finish', finishReason: 'aborted', steps }
    case 'done': return { type: 'finish', finishReason: 'stop', steps }
    case 'interrupted':
    case 'failed':
      return { type: 'fail', steps, error: { kind: 'server', message: `${job.error ?? 'The server lost this reply before it finished.'} Press Retry.`, retryable: true } }
    default: return undefined
  }
}

/**
 * The last event of a stream whose job record disappeared while it was read (Redis flushed, or retention dropped
 * the job): no event will ever follow, so the tab ends the reply as failed, keeping what it received.
 */
export function vanishedJobEvent(): LoopEvent {
  return { type: 'fail', steps: 0, error: { kind: 'server', message: 'The server no longer has this reply: its record was deleted (the server\'s storage was cleared or the reply expired). Press Retry.', retryable: true } }
}

/** Whether `event` is a run's last one. */
export function isRunEnd(event: LoopEvent): boolean {
  return event.type === 'finish' || event.type === 'fail'
}
