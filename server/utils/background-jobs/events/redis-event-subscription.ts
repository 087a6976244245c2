import type { Redis } from 'ioredis'
import type { JobEvent } from '../store/job-store-types'
import { decodeStreamEntry } from '../store/redis-job-encoding'
import { createOrderedDelivery } from './ordered-delivery'
import { eventHubFor } from './redis-event-hub'

/** Entries asked for per XRANGE. */
const PAGE_SIZE = 1000
/** Pause before reading the stream again after Redis failed (it is reconnecting; the main client reports it). */
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

/** A live subscription; `stop()` ends it at once. */
export interface StreamSubscription {
  stop: () => void
}

/**
 * Follows a job's stream from `afterId`. It first listens on the job's channel (every append publishes its entry
 * there, redis-job-scripts.ts), then reads the backlog with XRANGE, so an entry appended meanwhile is in the backlog
 * or arrives live, and the ordered delivery drops the copy. Live entries are delivered as they arrive (one hop:
 * Redis pushes them); an entry whose id is not the next one (messages lost in an outage) makes it read the gap from
 * the stream first. `subscribe` resolves with the backlog delivered.
 */
export async function subscribeToStream<T>(options: StreamSubscriptionOptions<T>): Promise<StreamSubscription> {
  const { redis, eventsKey, jobId, signal } = options
  let stopped = false
  let unlisten: (() => void) | undefined
  /** While the stream is being read, live entries wait here (in order) and are pushed after it. */
  let waiting: JobEvent<T>[] | undefined = []
  let retry: ReturnType<typeof setTimeout> | undefined
  const delivery = createOrderedDelivery<T>(options.afterId, options.onEvent, (error) => {
    console.error('[job-store]', new Error(`A subscriber of job ${jobId} threw; its subscription stopped.`, { cause: error }))
    stop()
  })

  function stop(): void {
    if (stopped) return
    stopped = true
    signal.removeEventListener('abort', stop)
    clearTimeout(retry)
    unlisten?.()
    options.onEnd()
  }
  signal.addEventListener('abort', stop, { once: true })
  if (signal.aborted) stop()

  /** Reads the stream after the last delivered id to its end, then pushes what arrived live meanwhile. */
  async function catchUp(): Promise<void> {
    waiting ??= []
    for (;;) {
      if (stopped) return
      const page = await redis.xrange(eventsKey, `${delivery.lastId + 1}-0`, '+', 'COUNT', PAGE_SIZE)
      for (const entry of page) delivery.push(decodeStreamEntry<T>(jobId, entry))
      if (page.length < PAGE_SIZE) break
    }
    const live = waiting
    waiting = undefined
    // Straight to the delivery: copies of what the read gave are dropped, and ids the stream no longer holds
    // (trimmed by retention) are a gap the reader sees, not a reason to read again.
    for (const event of live) delivery.push(event)
  }

  function catchUpLater(): void {
    catchUp().catch((error: unknown) => {
      if (stopped) return
      console.error('[job-store]', new Error(`Reading job ${jobId}'s events from Redis failed; retrying.`, { cause: error }))
      retry = setTimeout(catchUpLater, RETRY_DELAY_MS)
      retry.unref?.()
    })
  }

  function receive(event: JobEvent<T>): void {
    if (stopped) return
    if (waiting) {
      waiting.push(event)
    }
    else if (event.id <= delivery.lastId + 1) {
      delivery.push(event)
    }
    else {
      // A gap: some publications were lost (an outage). The stream has them.
      waiting = [event]
      catchUpLater()
    }
  }

  if (stopped) return { stop }
  try {
    unlisten = await eventHubFor(redis).listen(eventsKey, {
      onMessage: (text) => {
        const event = decodePublished<T>(jobId, text)
        if (event) receive(event)
      },
      onResubscribed: () => {
        if (!waiting) catchUpLater()
      },
    })
    // Stopped while the SUBSCRIBE was on its way: the stop above could not release the channel yet.
    if (stopped) {
      unlisten()
      return { stop }
    }
    await catchUp()
  }
  catch (error) {
    // Aborted meanwhile (its connection may have closed under it): nobody waits for this subscription any more.
    if (stopped) return { stop }
    stop()
    throw error
  }
  return { stop }
}

/** A published entry (`<id>\n<payload>`) as a JobEvent; undefined for anything else on the channel. */
function decodePublished<T>(jobId: string, text: string): JobEvent<T> | undefined {
  const newline = text.indexOf('\n')
  const id = Number(text.slice(0, newline))
  if (newline < 1 || !Number.isSafeInteger(id) || id < 1) return undefined
  try {
    return decodeStreamEntry<T>(jobId, [`${id}-0`, ['event', text.slice(newline + 1)]])
  }
  catch (error) {
    console.error('[job-store]', error)
    return undefined
  }
}
