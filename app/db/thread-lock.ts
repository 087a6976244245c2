/**
 * Web Locks tell every tab of the origin which threads are being answered right now, so a tab that starts up
 * does not mark another tab's live reply as interrupted. Browsers without Web Locks (and jsdom) skip this quietly:
 * the only cost there is the old behaviour, a live reply in another tab shown as interrupted until it finishes.
 */
const PREFIX = 'plugboard:thread:'

function webLocks(): LockManager | undefined {
  return typeof navigator !== 'undefined' && navigator.locks && typeof navigator.locks.request === 'function'
    ? navigator.locks
    : undefined
}

/**
 * Marks a thread as busy in this tab until the returned function is called. Hold it for the whole send
 * (streaming and tool runs). Shared mode: it never waits for, or blocks, another tab.
 */
export async function holdThreadLock(threadId: string): Promise<() => void> {
  const locks = webLocks()
  if (!locks) return () => {}
  let release!: () => void
  const released = new Promise<void>(resolve => (release = resolve))
  await new Promise<void>((acquired) => {
    locks.request(`${PREFIX}${threadId}`, { mode: 'shared' }, () => {
      acquired()
      return released
    }).catch(() => acquired())
  })
  return release
}

/** The threads some tab of this origin holds a lock on right now. */
export async function busyThreadIds(): Promise<Set<string>> {
  const locks = webLocks()
  if (!locks) return new Set()
  const snapshot = await locks.query()
  const names = (snapshot.held ?? []).map(lock => lock.name ?? '')
  return new Set(names.filter(name => name.startsWith(PREFIX)).map(name => name.slice(PREFIX.length)))
}
