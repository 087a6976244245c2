import type { LoopEvent } from '#shared/loop/loop-event'
import { isFinishedJob } from '../store/job-retention'
import type { JobControl } from './job-control'
import type { JobRecord, JobStore } from '../store/job-store-types'
import { abortRunningJob } from '../runner/running-jobs'

/**
 * Stop, from any tab on any instance. The record keeps `stopRequested` (a runner that starts or takes the job over
 * later reads it and ends at once); the instance running the job is told through the job control. On one process,
 * a job that is running or paused but runs nowhere here has no runner left: it is marked stopped and its stream
 * ended. Resolves whether a runner in this process was aborted.
 */
export async function requestJobStop(store: JobStore, control: JobControl, job: JobRecord): Promise<boolean> {
  if (isFinishedJob(job)) return false
  await store.updateJob(job.id, { stopRequested: true })
  const abortedHere = abortRunningJob(job.id)
  // On Redis a job may run twice for a moment (an instance so busy that its claim lapsed): tell every instance.
  if (abortedHere && !control.shared) return true
  await control.send({ type: 'stop', jobId: job.id })
  if (abortedHere) return true
  if (!control.shared && (job.status === 'running' || job.status === 'paused')) {
    await store.updateJob(job.id, { status: 'stopped' })
    await store.appendEvent(job.id, { type: 'finish', finishReason: 'aborted', steps: 0 } satisfies LoopEvent)
  }
  return false
}
