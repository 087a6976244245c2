import type { CacheSnapshot } from 'virtua'
import { setNewest } from '~/utils/chat/recent-map'

/** Where the user left a chat's message list, so switching back shows the same place. */
export interface ListScrollMemory {
  /** The user was at the bottom, following new messages. */
  following: boolean
  /** scrollTop when they left. */
  offset: number
  /** The turn at the top of the view and how far (px) the view was scrolled past its start: sizes may change, this holds. */
  anchor?: { turnId: string, offset: number }
  /** The virtual list's measured item sizes, valid for `length` turns. */
  cache?: CacheSnapshot
  length: number
}

const MAX_REMEMBERED = 50
const memory = new Map<string, ListScrollMemory>()

/** The remembered position of a chat, if the user scrolled in it during this page's life. */
export function recallListScroll(threadId: string | undefined): ListScrollMemory | undefined {
  return threadId ? memory.get(threadId) : undefined
}

/** Remembers a chat's position (the oldest of more than 50 chats is forgotten). */
export function rememberListScroll(threadId: string | undefined, position: ListScrollMemory): void {
  if (!threadId) return
  setNewest(memory, threadId, position, MAX_REMEMBERED)
}
