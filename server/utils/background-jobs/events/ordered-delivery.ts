import type { JobEvent } from '../store/job-store-types'

/** One subscriber's inbox: hands it events in id order, each once. */
export interface OrderedDelivery<T> {
  /** Delivers `event` unless an event with this id or a later one was already delivered. */
  push: (event: JobEvent<T>) => void
  /** The id of the last event delivered (or queued), `afterId` before the first. */
  readonly lastId: number
  /** Whether the subscriber threw and delivery stopped. */
  readonly failed: boolean
}

/**
 * Wraps a subscriber's `onEvent` so that it gets each event once and in order even when the backlog and the live
 * feed overlap, or when `onEvent` itself appends to the job (a re-entrant push waits for the current one to
 * return). If `onEvent` throws, delivery stops and `onFailure` is told: a subscriber that missed an event must
 * not be fed the next one as if nothing happened.
 */
export function createOrderedDelivery<T>(
  afterId: number,
  onEvent: (event: JobEvent<T>) => void,
  onFailure: (error: unknown) => void,
): OrderedDelivery<T> {
  let lastId = afterId
  let failed = false
  let draining = false
  const pending: JobEvent<T>[] = []

  function drain(): void {
    draining = true
    try {
      while (pending.length > 0 && !failed) {
        try {
          onEvent(pending.shift()!)
        }
        catch (error) {
          failed = true
          pending.length = 0
          onFailure(error)
        }
      }
    }
    finally {
      draining = false
    }
  }

  return {
    push(event) {
      if (failed || event.id <= lastId) return
      lastId = event.id
      pending.push(event)
      if (!draining) drain()
    },
    get lastId() { return lastId },
    get failed() { return failed },
  }
}
