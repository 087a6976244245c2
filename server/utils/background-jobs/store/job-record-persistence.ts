import { prefixStorage } from 'unstorage'
import type { Storage } from 'unstorage'
import { StorageError } from '#shared/errors/storage-error'
import { isFinishedJob } from './job-retention'
import type { JobRecord } from './job-store-types'

/** Job records kept on disk (or any unstorage driver) by the embedded store, so a restart knows what it cut. */
export interface JobRecordPersistence {
  /** Writes the record; writes of one job land in the order they were asked for. */
  save: (job: JobRecord) => Promise<void>
  remove: (jobId: string) => Promise<void>
  /**
   * Every kept record, the ones that were still queued, running or paused marked 'interrupted' (and saved so):
   * the process that ran them is gone, and with it the provider key and the in-flight reply. Whatever the runner
   * put in `state` (finished steps, the partial reply) is kept for the browser to show.
   */
  restore: (now?: number) => Promise<JobRecord[]>
}

/** The restart note a browser shows on an interrupted job. */
export const RESTART_INTERRUPTION = 'The server restarted while this job was running.'

/**
 * Persistence of job records under `storage` (keys `jobs:<id>`). Only records are kept, not events: writing each
 * text delta to disk would cost far more than the rare restart it serves.
 */
export function createJobRecordPersistence(storage: Storage): JobRecordPersistence {
  const jobs = prefixStorage(storage, 'jobs')
  // Two updates of one job in quick succession must not reach the disk in the other order.
  const writes = new Map<string, Promise<void>>()

  function inOrder(jobId: string, operation: string, write: () => Promise<void>): Promise<void> {
    const previous = writes.get(jobId) ?? Promise.resolve()
    const next = previous.catch(() => {}).then(write).catch((cause: unknown) => {
      throw new StorageError(`Could not ${operation} job ${jobId}.`, { operation, cause })
    })
    writes.set(jobId, next)
    const settled = () => { if (writes.get(jobId) === next) writes.delete(jobId) }
    next.then(settled, settled)
    return next
  }

  return {
    save: job => inOrder(job.id, 'save', () => jobs.setItem(job.id, job)),
    remove: jobId => inOrder(jobId, 'remove', () => jobs.removeItem(jobId)),
    async restore(now = Date.now()) {
      const restored: JobRecord[] = []
      for (const key of await jobs.getKeys()) {
        const kept = await jobs.getItem<JobRecord>(key)
        if (!kept || typeof kept !== 'object' || typeof kept.id !== 'string') continue
        if (isFinishedJob(kept)) {
          restored.push(kept)
          continue
        }
        const interrupted: JobRecord = { ...kept, status: 'interrupted', error: RESTART_INTERRUPTION, updatedAt: now, ownerId: undefined }
        await inOrder(interrupted.id, 'save', () => jobs.setItem(interrupted.id, interrupted))
        restored.push(interrupted)
      }
      return restored
    },
  }
}
