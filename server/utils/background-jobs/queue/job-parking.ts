import type { JobStatus } from '../store/job-store-types'
import type { JobSlot } from './job-slots'

/** A run's side of parking: its waits for people, counted, and its runner slot given back and taken again. */
export interface JobParking {
  /**
   * One call starts (true) or stops (false) waiting for a person. The first wait gives the slot back and writes
   * 'paused'; the end of the last takes a slot again (it may wait for one) and writes 'running'. Calls are applied
   * one after another, so a wait that starts while the slot is being taken back cannot mix the two up.
   */
  waiting: (waiting: boolean, writeStatus: (status: JobStatus) => Promise<void>) => Promise<void>
  /** Resolves once no wait is being applied and, with no call waiting, the run holds its slot again. */
  ready: () => Promise<void>
}

/**
 * Parking for one run. `signal` is the run's (Stop, lease lost, shutdown): once it aborts, a parked run does not
 * queue for a slot to end in.
 */
export function createParking(slot: JobSlot | undefined, signal: AbortSignal): JobParking {
  let waits = 0
  let parked = false
  let applied: Promise<void> = Promise.resolve()

  async function unpark(): Promise<void> {
    if (!parked) return
    parked = false
    if (!signal.aborted) await slot?.acquire(signal)
  }

  function inOrder(change: () => Promise<void>): Promise<void> {
    const next = applied.then(change)
    applied = next.catch(() => {})
    return next
  }

  return {
    waiting: (waiting, writeStatus) => inOrder(async () => {
      if (waiting) {
        if (waits++ > 0) return
        parked = true
        slot?.release()
        await writeStatus('paused')
        return
      }
      if (--waits > 0) return
      await unpark()
      await writeStatus('running')
    }),
    // A call that ended by the executor's timeout may tell its end a moment after the loop went on: the loop's
    // next event waits here until then, so no step runs without a slot.
    ready: () => inOrder(async () => {
      if (waits === 0) await unpark()
    }),
  }
}
