/**
 * Parts of the first screen that mount after its first paint (`ChatDeferredMount`), each in a task of its own,
 * so that no single task renders the whole page. The page counts as ready for input once they are all mounted.
 */
let pending = 0
let waiters: Array<() => void> = []

/** Registers a part that will mount later; call the returned function once it has. */
export function trackDeferredMount(): () => void {
  pending++
  let done = false
  return () => {
    if (done) return
    done = true
    pending--
    if (pending > 0) return
    const resolved = waiters
    waiters = []
    for (const resolve of resolved) resolve()
  }
}

/** Resolves when every deferred part registered so far has mounted. */
export function deferredMountsDone(): Promise<void> {
  return pending === 0 ? Promise.resolve() : new Promise(resolve => waiters.push(resolve))
}
