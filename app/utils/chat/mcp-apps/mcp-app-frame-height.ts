/**
 * The height each app's frame last had, per call. A card of the virtual message list is unmounted when its turn
 * leaves the rendered range and mounted again when it comes back: a frame that started at a default height and
 * then grew to the app's size changed its turn's height each time, which moved the range, which unmounted the
 * turn again, so an app could be torn down over and over before its handshake finished. Starting at the last
 * height keeps the turn the size the list measured.
 */
import type { McpAppRecord } from '~/db/types'
import { setNewest } from '~/utils/chat/recent-map'

/** Heights the frame may take inline; an app asking for more scrolls inside it. */
export const MCP_APP_MIN_HEIGHT = 48
export const MCP_APP_MAX_INLINE_HEIGHT = 1600
/** The frame's height before the app has said how tall it is (and nothing was kept). */
export const MCP_APP_DEFAULT_HEIGHT = 160
/** Calls whose heights are kept in memory (the rows keep theirs). */
const MAX_KEPT = 200

const heights = new Map<string, number>()

/** An app's asked-for height within the inline bounds, or undefined when it is not a finite number. */
export function boundedMcpAppHeight(height: unknown): number | undefined {
  if (typeof height !== 'number' || !Number.isFinite(height)) return undefined
  return Math.min(MCP_APP_MAX_INLINE_HEIGHT, Math.max(MCP_APP_MIN_HEIGHT, Math.ceil(height)))
}

export function rememberMcpAppHeight(callId: string, height: number): void {
  setNewest(heights, callId, height, MAX_KEPT)
}

/** The height a call's frame starts at: this tab's last, else the row's, else the default. */
export function initialMcpAppHeight(callId: string, record: Pick<McpAppRecord, 'frameHeight'>): number {
  return heights.get(callId) ?? boundedMcpAppHeight(record.frameHeight) ?? MCP_APP_DEFAULT_HEIGHT
}
