/**
 * How many relayed MCP requests one browser session may have open at once. Each relayed server keeps an event
 * stream open (a page has 16 servers at most), which holds a socket on this server for as long as the MCP server
 * keeps it busy; rate limits count only new requests, so without a cap one page could hold any number of them.
 */
export const MAX_RELAYED_REQUESTS_PER_SESSION = 32

const open = new Map<string, number>()

/** Takes a slot for `key` (the session id); returns its release, or undefined when all slots are taken. */
export function takeRelaySlot(key: string, max = MAX_RELAYED_REQUESTS_PER_SESSION): (() => void) | undefined {
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
}
