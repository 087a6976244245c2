/**
 * Counts long-lived responses (event streams, relayed requests) held open per key (a session id, an address), so a
 * cap can refuse one more: rate limits count only new requests, and a held stream costs a socket for as long as
 * it stays open. Counts live in this process, which is what holds the sockets.
 */
export interface OpenSlots {
  /** Takes a slot for `key`; returns its release (safe to call twice), or undefined when `max` are taken. */
  take: (key: string, max: number) => (() => void) | undefined
  /** How many slots `key` holds now. */
  count: (key: string) => number
}

export function createOpenSlots(): OpenSlots {
  const open = new Map<string, number>()
  return {
    take(key, max) {
      const count = open.get(key) ?? 0
      if (count >= max) return undefined
      open.set(key, count + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        const left = (open.get(key) ?? 1) - 1
        if (left <= 0) open.delete(key)
        else open.set(key, left)
      }
    },
    count: key => open.get(key) ?? 0,
  }
}
