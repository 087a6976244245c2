/**
 * A LockManager that keeps the Web Locks rules that matter to the app (exclusive and shared modes, `ifAvailable`,
 * queued requests granted in order when the holder lets go, `signal` to give up waiting, `query()`), for jsdom,
 * which has none. Requests made on it directly stand for another tab.
 */
interface HeldLock { name: string, mode: LockMode }
interface Waiting extends HeldLock { grant: (lock: HeldLock) => void }

export function createFakeLockManager() {
  const held: HeldLock[] = []
  const queue: Waiting[] = []
  const grantable = (name: string, mode: LockMode) => {
    const holders = held.filter(lock => lock.name === name)
    return mode === 'exclusive' ? holders.length === 0 : holders.every(lock => lock.mode === 'shared')
  }
  const pump = () => {
    for (let index = 0; index < queue.length; index++) {
      const entry = queue[index]!
      if (queue.slice(0, index).some(earlier => earlier.name === entry.name) || !grantable(entry.name, entry.mode)) continue
      queue.splice(index--, 1)
      const lock = { name: entry.name, mode: entry.mode }
      held.push(lock)
      entry.grant(lock)
    }
  }
  async function request(name: string, options: LockOptions, callback: (lock: HeldLock | null) => unknown): Promise<unknown> {
    const mode = options.mode ?? 'exclusive'
    let lock: HeldLock
    if (grantable(name, mode) && !queue.some(entry => entry.name === name)) {
      lock = { name, mode }
      held.push(lock)
    }
    else if (options.ifAvailable) {
      return callback(null)
    }
    else {
      lock = await new Promise<HeldLock>((grant, reject) => {
        const entry: Waiting = { name, mode, grant }
        queue.push(entry)
        options.signal?.addEventListener('abort', () => {
          const index = queue.indexOf(entry)
          if (index < 0) return
          queue.splice(index, 1)
          reject(new DOMException('The request was aborted.', 'AbortError'))
        }, { once: true })
      })
    }
    try {
      return await callback(lock)
    }
    finally {
      held.splice(held.indexOf(lock), 1)
      pump()
    }
  }
  const manager = {
    request,
    query: async () => ({ held: held.map(lock => ({ ...lock, clientId: 'fake' })), pending: queue.map(({ name, mode }) => ({ name, mode, clientId: 'fake' })) }),
  }
  return {
    manager: manager as unknown as LockManager,
    /** Holds `name` exclusively as another tab would, until the returned function is called. */
    holdElsewhere(name: string): Promise<() => void> {
      return new Promise((acquired) => {
        void request(name, { mode: 'exclusive' }, () => new Promise<void>(release => acquired(release)))
      })
    },
    /** Whether another tab could claim `name` right now. */
    available: (name: string) => grantable(name, 'exclusive'),
  }
}
