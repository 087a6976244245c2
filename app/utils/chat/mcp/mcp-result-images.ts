import { shallowRef } from 'vue'
import type { McpResultImage } from '#shared/mcp/mcp-tool-result'

/** Calls whose images are kept; older ones are dropped (the text result says an image was shown). */
const MAX_CALLS = 50

/**
 * Images of MCP results by call id, for the tool cards of this tab. Only the text goes to the model and into Dexie;
 * the images live in memory, bounded, so a reload shows the card's text description instead.
 */
const images = shallowRef<ReadonlyMap<string, McpResultImage[]>>(new Map())

export function recordMcpResultImages(callId: string, list: McpResultImage[]): void {
  const next = new Map(images.value)
  next.delete(callId)
  next.set(callId, list.slice(0, 8))
  while (next.size > MAX_CALLS) next.delete(next.keys().next().value!)
  images.value = next
}

/** The images of one call's result (reactive), or an empty list. */
export function mcpResultImages(callId: string): McpResultImage[] {
  return images.value.get(callId) ?? []
}
