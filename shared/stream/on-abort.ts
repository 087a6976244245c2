/**
 * One abort listener per signal, however many waiters share it. A step with 200 parallel tool calls (each with its
 * own timeout and approval wait) listens to the run's one signal 200 times at once; as separate listeners that trips
 * Node's MaxListenersExceededWarning on every run, although each is removed when its call settles. Here the signal
 * holds a single dispatcher, added with the first waiter and removed with the last.
 */

interface Fan { waiters: Set<() => void>, dispatch: () => void }

const fans = new WeakMap<AbortSignal, Fan>()

/**
 * Calls `listener` once when `signal` aborts; returns a function that stops listening (safe to call twice).
 * Nothing is called for a signal that has already aborted: check `signal.aborted` first, as with addEventListener.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  const fan = fans.get(signal) ?? openFan(signal)
  // A wrapper of our own, so the same function passed twice is two waiters, each removed by its own call.
  const waiter = () => listener()
  fan.waiters.add(waiter)
  return () => {
    if (!fan.waiters.delete(waiter) || fan.waiters.size > 0) return
    // The last waiter left: take the dispatcher off the signal, so a long-lived signal holds nothing.
    if (fans.get(signal) === fan) fans.delete(signal)
    signal.removeEventListener('abort', fan.dispatch)
  }
}

function openFan(signal: AbortSignal): Fan {
  const waiters = new Set<() => void>()
  const dispatch = () => {
    fans.delete(signal)
    for (const waiter of [...waiters]) {
      try {
        waiter()
      }
      catch (error) {
        // As an EventTarget does: one throwing listener neither stops the others nor goes unreported.
        queueMicrotask(() => {
          throw error
        })
      }
    }
    waiters.clear()
  }
  const fan = { waiters, dispatch }
  fans.set(signal, fan)
  signal.addEventListener('abort', dispatch, { once: true })
  return fan
}
