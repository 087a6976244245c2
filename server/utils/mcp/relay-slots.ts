import { createOpenSlots } from '../http/open-slots'

/**
 * How many relayed MCP requests one browser session may have open at once. Each relayed server keeps an event
 * stream open (a page has 16 servers at most), which holds a socket on this server for as long as the MCP server
 * keeps it busy; rate limits count only new requests, so without a cap one page could hold any number of them.
 */
export const MAX_RELAYED_REQUESTS_PER_SESSION = 32

const relaySlots = createOpenSlots()

/** Takes a slot for `key` (the session id); returns its release, or undefined when all slots are taken. */
export function takeRelaySlot(key: string, max = MAX_RELAYED_REQUESTS_PER_SESSION): (() => void) | undefined {
  return relaySlots.take(key, max)
}
