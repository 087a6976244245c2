import type { JobStore } from '../../server/utils/background-jobs/store/job-store-types'
import { wallClockMs } from './protocol'

/**
 * The store a bench runner writes through: each appended event is stamped with the emitting instance and the wall
 * clock (what a reader on the other instance measures latency from), and each append's round trip is pushed to
 * `roundTrips`.
 */
export function stampedJobStore(store: JobStore, emittedBy: string, roundTrips: number[]): JobStore {
  return {
    ...store,
    appendEvent: async (jobId, event, fence) => {
      const emittedAt = wallClockMs()
      const id = await store.appendEvent(jobId, { ...(event as object), emittedBy, emittedAt }, fence)
      roundTrips.push(wallClockMs() - emittedAt)
      return id
    },
  }
}
