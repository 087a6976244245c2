import type { ServerResponse } from 'node:http'

/** The event streams this instance holds open (a device's sync feed, a tab following a background chat). */
const held = new Set<ServerResponse>()

/** Counts `response` as a held stream until the returned release is called (however the stream ends). */
export function holdStream(response: ServerResponse): () => void {
  held.add(response)
  return () => {
    held.delete(response)
  }
}

/**
 * Ends every held stream: at shutdown, so the instance stops at once. Nitro's graceful shutdown waits for every
 * connection to end (30 s by default) before its `close` hook runs, and an event stream never ends by itself; the
 * browsers reconnect (to another instance, or this one restarted) and read on from where they were.
 * Returns how many it ended.
 */
export function endHeldStreams(): number {
  const count = held.size
  for (const response of held) {
    if (!response.writableEnded) response.end()
  }
  held.clear()
  return count
}
