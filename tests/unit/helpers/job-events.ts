// Waiting on a background job's event stream, as the tab reading it would: by events, never by a fixed delay.
import type { LoopEvent } from '#shared/loop/loop-event'
import type { JobEvent, JobStore } from '~~/server/utils/background-jobs/store/job-store-types'

/**
 * Waits (yielding to the event loop between reads) until the job's stream holds an event that matches. Bounded by
 * time, not by a count of reads: on a loaded machine 2,000 reads went by before a 1 ms-paced model's events came.
 * Fails with what the stream held, so a run that never gets there says where it stopped.
 */
export async function waitForEvent(store: JobStore, jobId: string, match: (event: LoopEvent) => boolean, timeoutMs = 15_000): Promise<JobEvent<LoopEvent>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const events = await store.readEvents<LoopEvent>(jobId, 0)
    const found = events.find(item => match(item.event))
    if (found) return found
    if (Date.now() > deadline) throw new Error(`the event never came in ${timeoutMs} ms; the stream held: ${events.map(item => item.event.type).join(', ') || 'nothing'}`)
    await new Promise(resolve => setImmediate(resolve))
  }
}

/** The run has ended, finished or failed. */
export const isEnd = (event: LoopEvent) => event.type === 'finish' || event.type === 'fail'
