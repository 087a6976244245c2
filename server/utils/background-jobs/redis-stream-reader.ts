import type { Redis } from 'ioredis'

/** Entries asked for per stream and XREAD. */
const PAGE_SIZE = 1000
/** Pause before reading again after Redis failed (it is reconnecting; the main client reports the outage). */
const RETRY_DELAY_MS = 1000

/** One follower of one stream: where it stands, and whom to hand new entries. */
export interface StreamFollower {
  key: string
  /** The last id it has (entries after it are wanted). */
  lastId: () => number
  deliver: (entries: [string, string[]][]) => void
}

/**
 * Live entries of many streams over one blocking connection per client (an instance), instead of one connection per
 * reader: one `XREAD BLOCK 0 STREAMS k1 k2 ... id1 id2 ...` at a time. A follower added while the read blocks wakes
 * it with `CLIENT UNBLOCK` (sent again until the read that lacks it has really been unblocked), so the next read
 * includes it. The connection closes when the last follower leaves.
 */
export interface StreamReader {
  /** Starts following; returns the function that stops it. */
  follow: (follower: StreamFollower) => () => void
}

const readers = new WeakMap<Redis, StreamReader>()

/** The instance's reader on `redis` (made on first use, dropped when its last follower leaves). */
export function streamReaderFor(redis: Redis): StreamReader {
  let reader = readers.get(redis)
  if (!reader) {
    reader = createStreamReader(redis, () => readers.delete(redis))
    readers.set(redis, reader)
  }
  return reader
}

function createStreamReader(redis: Redis, onClosed: () => void): StreamReader {
  const followers = new Set<StreamFollower>()
  const connection = redis.duplicate()
  // Errors of this connection are the shared client's too, which reports them; the loop below retries.
  connection.on('error', () => {})
  let closed = false
  /** Bumped on every new follower; `reading` is the version the XREAD in flight was built from (-1: none). */
  let version = 0
  let reading = -1
  let clientId: number | undefined
  let waking = false

  function close(): void {
    if (closed) return
    closed = true
    onClosed()
    // disconnect() rejects the pending XREAD at once; quit() would wait for it to return.
    connection.disconnect()
  }

  async function wake(): Promise<void> {
    if (waking) return
    waking = true
    try {
      while (!closed && reading !== -1 && reading < version) {
        if (clientId !== undefined && Number(await redis.client('UNBLOCK', clientId).catch(() => 0)) === 1) return
        await new Promise(resolve => setTimeout(resolve, 2))
      }
    }
    finally {
      waking = false
    }
  }

  async function run(): Promise<void> {
    while (!closed) {
      try {
        // Asked before each read after a (re)connection: the id changes, and a blocked connection answers nothing.
        clientId ??= Number(await connection.client('ID'))
        const byKey = new Map<string, StreamFollower[]>()
        for (const follower of followers) byKey.set(follower.key, [...(byKey.get(follower.key) ?? []), follower])
        if (byKey.size === 0) return close()
        const keys = [...byKey.keys()]
        const ids = keys.map(key => `${Math.min(...byKey.get(key)!.map(follower => follower.lastId()))}-0`)
        reading = version
        const result = await connection.xread('COUNT', PAGE_SIZE, 'BLOCK', 0, 'STREAMS', ...keys, ...ids)
        reading = -1
        for (const [key, entries] of result ?? []) {
          for (const follower of byKey.get(key) ?? []) if (followers.has(follower)) follower.deliver(entries)
        }
      }
      catch (error) {
        reading = -1
        clientId = undefined
        if (closed) return
        console.error('[job-store]', new Error('Reading job events from Redis failed; retrying.', { cause: error }))
        await new Promise(resolve => setTimeout(resolve, RETRY_DELAY_MS).unref?.())
      }
    }
  }
  void run()

  return {
    follow(follower) {
      if (closed) throw new Error('This stream reader is closed.')
      followers.add(follower)
      version++
      void wake()
      return () => {
        followers.delete(follower)
        if (followers.size === 0) close()
      }
    },
  }
}
