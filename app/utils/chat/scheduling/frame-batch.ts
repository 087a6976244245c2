/** The latest value pushed, applied right away when the page is quiet and at most once per animation frame in a burst. */
export interface FrameBatch<T> {
  /** Applies `value` right away (in a task of its own) after a quiet frame, else at the next frame; an earlier pending value is dropped. */
  push: (value: T) => void
  /** Applies the pending value now. */
  flush: () => void
  /** Drops the pending value. */
  cancel: () => void
}

/**
 * Coalesces fast updates (a streamed reply's tokens arrive many times per frame at loopback speed) into one per
 * animation frame, so the page renders once per frame instead of once per token. The first value after a quiet
 * frame is applied in a task of its own right away: a model writing a word every few dozen ms gets each word
 * painted in the next frame, where waiting for a frame callback to apply it showed it a frame later. Its own task,
 * not the caller's: the render then never lengthens the task that reads the stream. Falls back to a 16 ms timer
 * where there are no frames (tests, workers).
 */
const QUIET_FRAMES = 2

export function createFrameBatch<T>(apply: (value: T) => void): FrameBatch<T> {
  const hasFrames = typeof requestAnimationFrame === 'function'
  let pending: { value: T } | undefined
  /** Set while an apply is due (a task, then the frame after it): values pushed meanwhile wait for it. */
  let handle: { frame: number } | { timer: ReturnType<typeof setTimeout> } | undefined

  function clear() {
    if (handle === undefined) return
    if ('frame' in handle) cancelAnimationFrame(handle.frame)
    else clearTimeout(handle.timer)
    handle = undefined
  }

  function waitForFrame() {
    handle = hasFrames ? { frame: requestAnimationFrame(onFrame) } : { timer: setTimeout(onFrame, 16) }
  }

  /** Frames in a row that found nothing to apply. */
  let quietFrames = 0

  function onFrame() {
    handle = undefined
    if (pending) {
      quietFrames = 0
      run()
    }
    // A burst with short pauses (a fast stream read chunk by chunk) stays on frames: only two quiet frames in a row
    // end it, so the next value is applied right away at most every few frames.
    else if (++quietFrames >= QUIET_FRAMES) return
    waitForFrame()
  }

  function run() {
    const next = pending
    pending = undefined
    if (next) apply(next.value)
  }

  return {
    push(value) {
      pending = { value }
      if (handle !== undefined) return
      quietFrames = 0
      handle = {
        timer: setTimeout(() => {
          run()
          waitForFrame()
        }, 0),
      }
    },
    flush() {
      clear()
      run()
    },
    cancel() {
      clear()
      pending = undefined
    },
  }
}
