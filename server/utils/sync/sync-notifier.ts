import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'

/** The Redis channel every instance listens on: one message per push that changed something. */
export const SYNC_CHANNEL = 'plugboard:sync'

type Listener = (cursor: number) => void

/**
 * Tells the open event streams of an owner that a push changed their records. Without Redis it is this process's
 * emitter; with Redis every instance publishes to one channel and relays what it hears to its own streams, so a
 * change pushed through instance A reaches a device whose stream is held by instance B.
 */
export function createSyncNotifier(redis?: Redis) {
  const local = new EventEmitter()
  // Every open stream of this instance listens here; the streams themselves are capped per owner.
  local.setMaxListeners(0)
  let subscriber: Redis | undefined
  let subscribing: Promise<unknown> | undefined

  function relay(_channel: string, text: string) {
    try {
      const { ownerId, cursor } = JSON.parse(text) as { ownerId?: unknown, cursor?: unknown }
      if (typeof ownerId === 'string' && typeof cursor === 'number') local.emit(ownerId, cursor)
    }
    catch {
      // Not ours: another program on the channel. Nothing to relay.
    }
  }

  return {
    /** Says that `ownerId`'s records changed up to `cursor`. */
    async publish(ownerId: string, cursor: number): Promise<void> {
      if (redis) await redis.publish(SYNC_CHANNEL, JSON.stringify({ ownerId, cursor }))
      else local.emit(ownerId, cursor)
    },
    /** Calls `listener` after each change of `ownerId`'s records; resolves (with the stop) once it is live. */
    async subscribe(ownerId: string, listener: Listener): Promise<() => void> {
      if (redis && !subscriber) {
        subscriber = redis.duplicate()
        // The shared client reports the outage; ioredis reconnects and resubscribes by itself.
        subscriber.on('error', () => {})
        subscriber.on('message', relay)
        subscribing = subscriber.subscribe(SYNC_CHANNEL)
      }
      await subscribing
      local.on(ownerId, listener)
      return () => { local.off(ownerId, listener) }
    },
    async close(): Promise<void> {
      local.removeAllListeners()
      await subscriber?.quit().catch(() => subscriber?.disconnect())
      subscriber = undefined
    },
  }
}

export type SyncNotifier = ReturnType<typeof createSyncNotifier>
