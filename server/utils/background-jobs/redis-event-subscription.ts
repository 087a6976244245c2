import type { Redis } from 'ioredis'
import type { JobEvent } from './job-store-types'
import { decodeStreamEntry } from './redis-job-encoding'
import { createOrderedDelivery } from './ordered-delivery'
import { streamReaderFor } from './redis-stream-reader'

/** Entries asked for per XRANGE. */
const PAGE_SIZE = 1000

/** What a subscription needs: where the stream is, from which id, and whom to tell. */
export interface StreamSubscriptionOptions<T> {
  redis: Redis
  eventsKey: string
  jobId: string
  afterId: number
  onEvent: (event: JobEvent<T>) => void
  signal: AbortSignal
  /** Called once when the subscription ends (abort, close, or a subscriber that threw). */
  onEnd: () => void
}

/** A live subscription; `stop()` ends it at once. */
export interface StreamSubscription {
  stop: () => void
}

/**
 * Reads a job's stream from `afterId`: the backlog with XRANGE on the shared client (awaited, so the caller's
 * subscribe resolves with the backlog delivered), then live entries through the instance's stream reader (one
 * blocking XREAD over every followed stream, redis-stream-reader.ts) from the last delivered id. Because the read
 * starts exactly after the last id delivered, nothing appended between the backlog and it is lost or delivered twice.
 */
export async function subscribeToStream<T>(options: StreamSubscriptionOptions<T>): Promise<StreamSubscription> {
  const { redis, eventsKey, jobId, signal } = options
  let stopped = false
  let unfollow: (() => void) | undefined
  const delivery = createOrderedDelivery<T>(options.afterId, options.onEvent, (error) => {
    console.error('[job-store]', new Error(`A subscriber of job ${jobId} threw; its subscription stopped.`, { cause: error }))
    stop()
  })

  function stop(): void {
    if (stopped) return
    stopped = true
    signal.removeEventListener('abort', stop)
    unfollow?.()
    options.onEnd()
  }
  signal.addEventListener('abort', stop, { once: true })
  if (signal.aborted) stop()

  function deliver(entries: [string, string[]][]): void {
    for (const entry of entries) delivery.push(decodeStreamEntry<T>(jobId, entry))
  }

  try {
    for (;;) {
      if (stopped) return { stop }
      const page = await redis.xrange(eventsKey, `${delivery.lastId + 1}-0`, '+', 'COUNT', PAGE_SIZE)
      deliver(page)
      if (page.length < PAGE_SIZE) break
    }
  }
  catch (error) {
    stop()
    throw error
  }
  if (stopped) return { stop }

  unfollow = streamReaderFor(redis).follow({ key: eventsKey, lastId: () => delivery.lastId, deliver })
  return { stop }
}
