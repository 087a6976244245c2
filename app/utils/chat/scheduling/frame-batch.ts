/** The latest value pushed, applied at once when the page is idle and at most once per animation frame in a burst. */
export interface FrameBatch<T> {
  /** Applies `value` now if nothing was applied in this frame, else keeps it for the next frame (an earlier pending value is dropped). */
  push: (value: T) => void
  /** Applies the pending value now. */
  flush: () => void
  /** Drops the pending value. */
  cancel: () => void
}

/**
 * Coalesces fast updates (a streamed reply's tokens arrive many times per frame at loopback speed) into one per
 * animation frame, so the page renders once per frame instead of once per token. The first value after a quiet
 * frame is applied at once: a model writing a word every few dozen ms gets each word painted in the next frame,
 * where waiting for a frame callback to apply it would show it a frame later (its render would land after that
 * frame's paint). Falls back to a 16 ms timer where there are no frames (tests, workers).
 */
export function createFrameBatch<T>(apply: (value: T) => void): FrameBatch<T> {
  const hasFrames = typeof requestAnimationFrame === 'function'
  let pending: { value: T } | undefined
  /** Set while the frame after an apply has not come yet: values pushed meanwhile wait for it. */
  let handle: number | ReturnType<typeof setTimeout> | undefined

  function clear() {
    if (handle === undefined) return
    if (hasFrames) cancelAnimationFrame(handle as number)
    else clearTimeout(handle)
    handle = undefined
  }

  function waitForFrame() {
    handle = hasFrames ? requestAnimationFrame(onFrame) : setTimeout(onFrame, 16)
  }

  function onFrame() {
    handle = undefined
    if (!pending) return
    run()
    // Still a burst: the next value waits for the frame after this one.
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
      run()
      waitForFrame()
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
