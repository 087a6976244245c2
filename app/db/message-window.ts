import { Dexie } from 'dexie'
import { activePathRange } from './active-path'
import { getDatabase } from './database'
import type { MessageRecord } from './types'

/** The newest rows of a thread's active path (or of a part of it), and whether there are older ones. */
export interface MessageWindow {
  rows: MessageRecord[]
  hasOlder: boolean
}

/**
 * Reads the newest `limit` rows of a thread's active path (in `seq` order) through the `[threadId+onPath+seq]`
 * index, without touching the older ones or the branches not shown. When older rows exist, leading tool rows are left for the next page, so a tool result is never
 * shown apart from the assistant row that called it.
 */
export function listLatestMessages(threadId: string, limit: number): Promise<MessageWindow> {
  return listMessagesBefore(threadId, Dexie.maxKey, limit)
}

/**
 * A page of older rows: the newest `limit` rows of a thread whose `seq` is below `beforeSeq`, read like
 * `listLatestMessages` (leading tool rows left for the next page). Paging reads only the new page, never again the
 * rows already shown.
 */
export async function listMessagesBefore(threadId: string, beforeSeq: number | typeof Dexie.maxKey, limit: number): Promise<MessageWindow> {
  const newestFirst = await getDatabase().messages.where('[threadId+onPath+seq]')
    .between([threadId, 1, Dexie.minKey], [threadId, 1, beforeSeq], true, false)
    .reverse()
    .limit(limit + 1)
    .toArray()
  const hasOlder = newestFirst.length > limit
  const rows = newestFirst.slice(0, limit).reverse()
  if (hasOlder) {
    const firstOwnRow = rows.findIndex(row => row.role !== 'tool')
    return { rows: firstOwnRow < 0 ? rows : rows.slice(firstOwnRow), hasOlder }
  }
  return { rows, hasOlder }
}

/** Every row of the active path from `fromSeq` on, in order: the newest part of a window once older pages were read. */
export function listMessagesFrom(threadId: string, fromSeq: number): Promise<MessageRecord[]> {
  return activePathRange(getDatabase(), threadId, fromSeq).toArray()
}

/**
 * The rows of the active path with `fromSeq <= seq < beforeSeq`, in order: an older page once a page older than it
 * was read, so the pages tile the path without a gap even after the path changed under them (a branch switched).
 */
export function listMessagesBetween(threadId: string, fromSeq: number, beforeSeq: number): Promise<MessageRecord[]> {
  return getDatabase().messages.where('[threadId+onPath+seq]').between([threadId, 1, fromSeq], [threadId, 1, beforeSeq], true, false).toArray()
}
