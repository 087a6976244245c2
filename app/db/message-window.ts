import { Dexie } from 'dexie'
import { getDatabase } from './database'
import type { MessageRecord } from './types'

/** The newest rows of a thread, and whether there are older ones. */
export interface MessageWindow {
  rows: MessageRecord[]
  hasOlder: boolean
}

/**
 * Reads the newest `limit` rows of a thread (in `seq` order) through the `[threadId+seq]` index, without touching
 * the older ones. When older rows exist, leading tool rows are left for the next page, so a tool result is never
 * shown apart from the assistant row that called it.
 */
export async function listLatestMessages(threadId: string, limit: number): Promise<MessageWindow> {
  const newestFirst = await getDatabase().messages.where('[threadId+seq]')
    .between([threadId, Dexie.minKey], [threadId, Dexie.maxKey])
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
