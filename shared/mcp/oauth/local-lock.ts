/** One task at a time in this process: a server's lock where Web Locks are missing (Node, old browsers, tests). */
export function createLocalLock(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const run = tail.then(task, task)
    tail = run.catch(() => {})
    return run
  }
}
