/** Steps run one by one when the browser is idle. */
export interface IdleSteps {
  /** Starts again from the first step (the steps already run stay run; the caller resets its own state). */
  restart: () => void
  /** Stops: no further step runs. */
  cancel: () => void
}

type IdleHandle = { kind: 'idle', id: number } | { kind: 'timer', id: ReturnType<typeof setTimeout> }

/**
 * Runs `steps` one per idle period (a timer where there is no `requestIdleCallback`), each in a task of its own,
 * so work that would make one long task (mounting a dozen messages) is spread over several short ones after the
 * first paint. `timeoutMs` bounds how long a step waits for idle time.
 */
export function runInIdleSteps(steps: ReadonlyArray<() => void>, timeoutMs = 200): IdleSteps {
  let next = 0
  let handle: IdleHandle | undefined

  function clear() {
    if (!handle) return
    if (handle.kind === 'idle') window.cancelIdleCallback(handle.id)
    else clearTimeout(handle.id)
    handle = undefined
  }

  function schedule() {
    if (next >= steps.length) return
    const run = () => {
      handle = undefined
      const step = steps[next++]
      step?.()
      schedule()
    }
    handle = typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function'
      ? { kind: 'idle', id: window.requestIdleCallback(run, { timeout: timeoutMs }) }
      : { kind: 'timer', id: setTimeout(run, 16) }
  }

  schedule()
  return {
    restart() {
      clear()
      next = 0
      schedule()
    },
    cancel() {
      clear()
      next = steps.length
    },
  }
}
