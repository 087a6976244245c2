import type { Redis } from 'ioredis'
import type { JobEvent } from './job-store-types'
import { decodeStreamEntry } from './redis-job-encoding'
import { createOrderedDelivery } from './ordered-delivery'

/** Entries asked for per XRANGE / XREAD. */
const PAGE_SIZE = 1000
/** Pause before reading again after Redis failed (it is reconnecting; the main client reports the outage). */
const RETRY_DELAY_MS = 1000

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

/** A live subscription; `stop()` ends it at once (it disconnects the blocked reader). */
export interface StreamSubscription {
  stop: () => void
}

/**
 * Reads a job's stream from `afterId`: the backlog with XRANGE on the shared client (awaited, so the caller's
 * subscribe resolves with the backlog delivered), then live entries with a blocking XREAD from the last delivered
 * id on a connection of its own: a blocked connection can run nothing else. Because XREAD starts exactly after the
 * last id delivered, nothing appended between the backlog and the first XREAD is lost or delivered twice.
 */
export async function subscribeToStream<T>(options: StreamSubscriptionOptions<T>): Promise<StreamSubscription> {
  const { redis, eventsKey, jobId, signal } = options
  let stopped = false
  let reader: Redis | undefined
  const delivery = createOrderedDelivery<T>(options.afterId, options.onEvent, (error) => {
    console.error('[job-store]', new Error(`A subscriber of job ${jobId} threw; its subscription stopped.`, { cause: error }))
    stop()
  })

  function stop(): void {
    if (stopped) return
    stopped = true
    signal.removeEventListener('abort', stop)
    // disconnect() rejects the pending XREAD at once; quit() would wait for it to return.
    reader?.disconnect()
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

  reader = redis.duplicate()
  // Errors of this connection are the shared client's too, which reports them; the loop below retries.
  reader.on('error', () => {})
  void readLive(reader)
  return { stop }

  async function readLive(connection: Redis): Promise<void> {
    while (!stopped) {
      try {
        const result = await connection.xread('COUNT', PAGE_SIZE, 'BLOCK', 0, 'STREAMS', eventsKey, `${delivery.lastId}-0`)
        for (const [, entries] of result ?? []) deliver(entries)
      }
      catch (error) {
        if (stopped) return
        console.error('[job-store]', new Error(`Reading the events of job ${jobId} from Redis failed; retrying.`, { cause: error }))
        await new Promise(resolve => setTimeout(resolve, RETRY_DELAY_MS).unref?.())
      }
    }
  }
}
