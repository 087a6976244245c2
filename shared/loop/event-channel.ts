import type { LoopEvent, LoopEventHandler } from './loop-event'

/** Delivers a run's events to its one handler, one at a time and in the order they were posted. */
export interface EventChannel {
  /** Posts an event and waits until the handler settled for it (and for everything before it). */
  emit: (event: LoopEvent) => Promise<void>
  /**
   * Posts an event without waiting, for reports that come from code that cannot wait (a handler's `status()`).
   * A failure of the handler surfaces at the next `emit` or `drain`.
   */
  post: (event: LoopEvent) => void
  /** Waits for every posted event; rejects with the handler's first failure. */
  drain: () => Promise<void>
}

/**
 * A serial queue in front of the handler, so concurrent tool calls never interleave inside the handler (the Dexie
 * recorder and a job's stream both rely on seeing events whole and in order). After the handler fails once, later
 * events are dropped: the run is already failing with that error.
 */
export function createEventChannel(handler: LoopEventHandler = () => {}): EventChannel {
  let tail: Promise<void> = Promise.resolve()
  let failure: { error: unknown } | undefined

  const post = (event: LoopEvent) => {
    tail = tail
      .then(() => (failure ? undefined : handler(event)))
      .catch((error: unknown) => {
        failure ??= { error }
      })
  }
  const drain = async () => {
    await tail
    if (failure) throw failure.error
  }
  return {
    post,
    drain,
    emit: async (event) => {
      post(event)
      await drain()
    },
  }
}
