/** The latest value pushed, applied at most once per animation frame. */
export interface FrameBatch<T> {
  /** Keeps `value` as the one to apply at the next frame (an earlier pending value is dropped). */
  push: (value: T) => void
  /** Applies the pending value now. */
  flush: () => void
  /** Drops the pending value. */
  cancel: () => void
}

/**
 * Coalesces fast updates (a streamed reply's tokens arrive many times per frame at loopback speed) into one per
 * animation frame, so the page renders once per frame instead of once per token. Falls back to a 16 ms timer where
 * there are no frames (tests, workers).
 */
export function createFrameBatch<T>(apply: (value: T) => void): FrameBatch<T> {
  const hasFrames = typeof requestAnimationFrame === 'function'
  let pending: { value: T } | undefined
  let handle: number | ReturnType<typeof setTimeout> | undefined

  function clear() {
    if (handle === undefined) return
    if (hasFrames) cancelAnimationFrame(handle as number)
    else clearTimeout(handle)
    handle = undefined
  }

  function run() {
    handle = undefined
    const next = pending
    pending = undefined
    if (next) apply(next.value)
  }

  return {
    push(value) {
      pending = { value }
      handle ??= hasFrames ? requestAnimationFrame(run) : setTimeout(run, 16)
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
