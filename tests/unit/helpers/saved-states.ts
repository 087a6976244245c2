import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import type { ChatJobState } from '~~/server/utils/background-jobs/runner/stream-handler'

/**
 * The last state each job's runner saved through `store`, kept although a finished job's record lets go of its
 * state: what a takeover would have gone on from at the end. Wraps the store's writes in place.
 */
export function watchSavedStates(store: JobStore): (jobId: string) => ChatJobState | undefined {
  const saved = new Map<string, ChatJobState>()
  const { putJob, updateJob } = store
  store.putJob = async (job) => {
    if (job.state !== undefined) saved.set(job.id, structuredClone(job.state) as ChatJobState)
    return putJob(job)
  }
  store.updateJob = async (jobId, patch, fence) => {
    const updated = await updateJob(jobId, patch, fence)
    if (patch.state !== undefined) saved.set(jobId, structuredClone(patch.state) as ChatJobState)
    return updated
  }
  return jobId => saved.get(jobId)
}
