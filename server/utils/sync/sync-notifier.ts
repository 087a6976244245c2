import type { Redis } from 'ioredis'
import type { CodedText } from '#shared/errors/coded-text'
import { serverText } from '#shared/errors/server-messages'

/** The Redis channel every instance listens on: one message per push that changed something. */
export const SYNC_CHANNEL = 'plugboard:sync'

/** Called with the owner's new cursor; returns false (or throws) when it can no longer deliver, and is dropped. */
export type SyncListener = (cursor: number) => boolean | void

/**
 * Listeners one instance holds at once: each is an open event stream (a socket), already capped per owner. Past
 * this the instance refuses new streams rather than growing its lists without end.
 */
export const DEFAULT_MAX_SYNC_LISTENERS = 10_000

/** Too many open event streams on this instance: the caller answers 503 and the device tries again later. */
export class SyncListenersFullError extends Error {
  /** The message as a code, for the stream to send. */
  readonly text: CodedText
  constructor(readonly max: number) {
    const text = serverText('server.sync.serverStreamsFull', { max })
    super(text.message)
    this.text = text
  }
}

/**
 * Tells the open event streams of an owner that a push changed their records. Without Redis it is this process's
 * own lists; with Redis every instance publishes to one channel and relays what it hears to its own streams, so a
 * change pushed through instance A reaches a device whose stream is held by instance B. One Redis subscription per
 * instance, whatever the number of streams.
 */
export function createSyncNotifier(redis?: Redis, options: { maxListeners?: number } = {}) {
  const maxListeners = options.maxListeners ?? DEFAULT_MAX_SYNC_LISTENERS
  const byOwner = new Map<string, Set<SyncListener>>()
  let count = 0
  let subscriber: Redis | undefined
  let subscribing: Promise<unknown> | undefined

  function remove(ownerId: string, listener: SyncListener): void {
    const listeners = byOwner.get(ownerId)
    if (!listeners?.delete(listener)) return
    count -= 1
    if (listeners.size === 0) byOwner.delete(ownerId)
  }

  function deliver(ownerId: string, cursor: number): void {
    const listeners = byOwner.get(ownerId)
    if (!listeners) return
    for (const listener of [...listeners]) {
      let alive: boolean | void
      try {
        alive = listener(cursor)
      }
      catch {
        alive = false
      }
      // A stream whose socket is gone or stuck: dropped here, so one dead device never holds a slot for good.
      if (alive === false) remove(ownerId, listener)
    }
  }

  function relay(_channel: string, text: string) {
    let message: { ownerId?: unknown, cursor?: unknown }
    try {
      message = JSON.parse(text) as typeof message
    }
    catch {
      // Not ours: another program on the channel. Nothing to relay.
      return
    }
    if (typeof message?.ownerId === 'string' && typeof message.cursor === 'number') deliver(message.ownerId, message.cursor)
  }

  function listenToRedis(client: Redis): Promise<unknown> {
    if (!subscribing) {
      subscriber = client.duplicate()
      // The shared client reports the outage; ioredis reconnects and resubscribes by itself.
      subscriber.on('error', () => {})
      subscriber.on('message', relay)
      subscribing = subscriber.subscribe(SYNC_CHANNEL).catch((error: unknown) => {
        // A failed first subscription is tried again by the next stream rather than failing every later one.
        const failed = subscriber
        subscriber = undefined
        subscribing = undefined
        failed?.disconnect()
        throw error
      })
    }
    return subscribing
  }

  return {
    /** Says that `ownerId`'s records changed up to `cursor`. */
    async publish(ownerId: string, cursor: number): Promise<void> {
      if (redis) await redis.publish(SYNC_CHANNEL, JSON.stringify({ ownerId, cursor }))
      else deliver(ownerId, cursor)
    },
    /** Calls `listener` after each change of `ownerId`'s records; resolves (with the stop) once it is live. */
    async subscribe(ownerId: string, listener: SyncListener): Promise<() => void> {
      if (count >= maxListeners) throw new SyncListenersFullError(maxListeners)
      if (redis) await listenToRedis(redis)
      if (count >= maxListeners) throw new SyncListenersFullError(maxListeners)
      let listeners = byOwner.get(ownerId)
      if (!listeners) byOwner.set(ownerId, listeners = new Set())
      if (!listeners.has(listener)) {
        listeners.add(listener)
        count += 1
      }
      return () => remove(ownerId, listener)
    },
    /** Listeners held now (all owners). */
    listenerCount: (): number => count,
    async close(): Promise<void> {
      byOwner.clear()
      count = 0
      const closing = subscriber
      subscriber = undefined
      subscribing = undefined
      await closing?.quit().catch(() => closing?.disconnect())
    },
  }
}

export type SyncNotifier = ReturnType<typeof createSyncNotifier>
