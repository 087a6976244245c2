/**
 * One reply per chat at a time, across the tabs of the origin. A tab that writes a reply (send, retry, continue, an
 * approval answer, following a server-run chat) holds its thread's Web Lock exclusively, so another tab cannot start
 * one there, and a tab that starts up does not mark that live reply interrupted. Another tab learns that a reply
 * started from a message on a BroadcastChannel and that it ended when its own (shared) request for the lock is
 * granted, which also happens when the writing tab is closed or crashes; nothing polls.
 * Browsers without Web Locks (and jsdom) skip this quietly: there each tab may write, as before.
 */
const PREFIX = 'plugboard:thread:'
const CHANNEL = 'plugboard:thread-replies'

/** Threads this tab holds, so it never takes its own reply for another tab's. */
const heldHere = new Set<string>()
let channel: BroadcastChannel | null | undefined

function webLocks(): LockManager | undefined {
  return typeof navigator !== 'undefined' && navigator.locks && typeof navigator.locks.request === 'function'
    ? navigator.locks
    : undefined
}

function replyChannel(): BroadcastChannel | undefined {
  if (channel === undefined) channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null
  return channel ?? undefined
}

/**
 * Claims a thread for one reply: resolves with the release function, or undefined when another tab is writing a
 * reply there. Never waits for that reply. Other tabs hear that a reply started.
 */
export async function claimThreadLock(threadId: string): Promise<(() => void) | undefined> {
  const locks = webLocks()
  if (!locks) return () => {}
  // A tab that waited for the last reply's end holds the name (shared) for an instant: only a writer refuses.
  for (let attempt = 0; attempt < 3; attempt++) {
    const release = await tryClaim(locks, threadId)
    if (release) {
      replyChannel()?.postMessage({ threadId })
      return release
    }
    if (await writerElsewhere(threadId)) return undefined
  }
  return undefined
}

function tryClaim(locks: LockManager, threadId: string): Promise<(() => void) | undefined> {
  return new Promise((resolve) => {
    locks.request(`${PREFIX}${threadId}`, { mode: 'exclusive', ifAvailable: true }, (lock) => {
      if (!lock) return resolve(undefined)
      let release!: () => void
      const released = new Promise<void>(done => (release = done))
      heldHere.add(threadId)
      resolve(() => {
        heldHere.delete(threadId)
        release()
      })
      return released
    }).catch(() => resolve(() => {}))
  })
}

/** True when another tab is writing a reply in this thread right now. */
export async function writerElsewhere(threadId: string): Promise<boolean> {
  const locks = webLocks()
  if (!locks || heldHere.has(threadId)) return false
  const snapshot = await locks.query()
  return (snapshot.held ?? []).some(lock => lock.name === `${PREFIX}${threadId}` && lock.mode === 'exclusive')
}

/** Resolves when no tab writes a reply in the thread (at once when none does); rejects when `signal` aborts. */
export async function whenThreadFree(threadId: string, signal: AbortSignal): Promise<void> {
  const locks = webLocks()
  if (!locks) return
  await locks.request(`${PREFIX}${threadId}`, { mode: 'shared', signal }, () => {})
}

/** Calls `listener` with the thread of each reply another tab starts. Returns the unsubscribe function. */
export function onReplyStartedElsewhere(listener: (threadId: string) => void): () => void {
  const replies = replyChannel()
  if (!replies) return () => {}
  const onMessage = (event: MessageEvent) => {
    const threadId = (event.data as { threadId?: unknown } | null)?.threadId
    if (typeof threadId === 'string') listener(threadId)
  }
  replies.addEventListener('message', onMessage)
  return () => replies.removeEventListener('message', onMessage)
}

/** The threads some tab of this origin holds a lock on right now. */
export async function busyThreadIds(): Promise<Set<string>> {
  const locks = webLocks()
  if (!locks) return new Set()
  const snapshot = await locks.query()
  const names = (snapshot.held ?? []).map(lock => lock.name ?? '')
  return new Set(names.filter(name => name.startsWith(PREFIX)).map(name => name.slice(PREFIX.length)))
}
