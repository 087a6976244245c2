import type { Redis } from 'ioredis'

/** Someone on this instance who wants the messages of one channel. */
export interface ChannelListener {
  onMessage: (text: string) => void
  /**
   * The connection came back after an outage and the channel is subscribed again: messages published meanwhile
   * were lost, so the listener reads what it missed from the stream.
   */
  onResubscribed: () => void
}

/**
 * The instance's live feed of job events over one pub/sub connection per client: each job's append script
 * publishes the entry on a channel named like its stream, and the hub SUBSCRIBEs to a channel while someone here
 * follows that job (UNSUBSCRIBE when the last one leaves). Nothing polls and nothing blocks: Redis pushes each entry
 * once, in the order the appends ran. The connection closes when the last listener leaves.
 */
export interface EventHub {
  /** Starts listening; resolves once the channel is subscribed (later publications reach `listener`). */
  listen: (channel: string, listener: ChannelListener) => Promise<() => void>
}

const hubs = new WeakMap<Redis, EventHub>()

/** The instance's hub on `redis` (made on first use, dropped when its last listener leaves). */
export function eventHubFor(redis: Redis): EventHub {
  let hub = hubs.get(redis)
  if (!hub) {
    hub = createEventHub(redis, () => hubs.delete(redis))
    hubs.set(redis, hub)
  }
  return hub
}

function createEventHub(redis: Redis, onClosed: () => void): EventHub {
  const channels = new Map<string, Set<ChannelListener>>()
  const connection = redis.duplicate()
  // Errors of this connection are the shared client's too, which reports them; ioredis reconnects by itself.
  connection.on('error', () => {})
  let closed = false
  let connectedOnce = false

  connection.on('message', (channel: string, text: string) => {
    for (const listener of channels.get(channel) ?? []) listener.onMessage(text)
  })
  connection.on('ready', () => {
    if (!connectedOnce) {
      connectedOnce = true
      return
    }
    // Back after an outage: subscribe again ourselves and wait for Redis to confirm, so that the listeners' reads
    // of what they missed happen after the channel is live again (nothing falls between the two).
    const names = [...channels.keys()]
    if (names.length === 0) return
    connection.subscribe(...names)
      .then(() => {
        for (const name of names) for (const listener of channels.get(name) ?? []) listener.onResubscribed()
      })
      .catch((error: unknown) => console.error('[job-store]', new Error('Could not subscribe to job events again after a Redis outage.', { cause: error })))
  })

  function close(): void {
    if (closed) return
    closed = true
    onClosed()
    connection.disconnect()
  }

  return {
    async listen(channel, listener) {
      if (closed) throw new Error('This event hub is closed.')
      let listeners = channels.get(channel)
      if (!listeners) {
        listeners = new Set()
        channels.set(channel, listeners)
      }
      listeners.add(listener)
      const stop = () => {
        const current = channels.get(channel)
        if (!current?.delete(listener) || current.size > 0) return
        channels.delete(channel)
        if (channels.size === 0) return close()
        connection.unsubscribe(channel).catch(() => {})
      }
      try {
        // Sent for every listener (Redis ignores a repeated SUBSCRIBE): a second listener of a channel must not
        // resolve before the first one's SUBSCRIBE was confirmed, and replies come back in order.
        await connection.subscribe(channel)
      }
      catch (error) {
        stop()
        throw error
      }
      return stop
    },
  }
}
