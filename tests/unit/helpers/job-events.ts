// Waiting on a background job's event stream, as the tab reading it would: by events, never by a clock.
import type { LoopEvent } from '#shared/loop/loop-event'
import type { JobEvent, JobStore } from '~~/server/utils/background-jobs/store/job-store-types'

/** Waits (yielding to the event loop, never on a clock) until the job's stream holds an event that matches. */
export async function waitForEvent(store: JobStore, jobId: string, match: (event: LoopEvent) => boolean): Promise<JobEvent<LoopEvent>> {
  for (let i = 0; i < 2000; i++) {
    const found = (await store.readEvents<LoopEvent>(jobId, 0)).find(item => match(item.event))
    if (found) return found
    await new Promise(resolve => setImmediate(resolve))
  }
  throw new Error('the event never came')
}

/** The run has ended, finished or failed. */
export const isEnd = (event: LoopEvent) => event.type === 'finish' || event.type === 'fail'
