import { Dexie } from 'dexie'
import type { PlugboardDatabase } from './database'
import type { MessageRecord } from './types'

/** The rows of a thread's active path (first row to active leaf), by the on-path index, in order. */
export function activePathRange(db: PlugboardDatabase, threadId: string, fromSeq: number | typeof Dexie.minKey = Dexie.minKey, includeFrom = true) {
  return db.messages.where('[threadId+onPath+seq]').between([threadId, 1, fromSeq], [threadId, 1, Dexie.maxKey], includeFrom, true)
}

/**
 * Makes `leafId` the thread's active leaf (none: an empty path) and moves the on-path marks to match. Only the part
 * that changes is touched: the new branch is walked up by its parent links until it meets the old path, and the
 * old path's rows past that point lose their mark. Call inside a 'rw' transaction on threads and messages; `known`
 * are rows read in that transaction, used instead of reading them again.
 */
export async function setActivePath(db: PlugboardDatabase, threadId: string, leafId: string | undefined, known: readonly MessageRecord[] = []): Promise<void> {
  // Rows the caller read in this transaction already (a subtree): a long branch is walked without a read per row.
  const cache = new Map(known.map(row => [row.id, row]))
  const walked: string[] = []
  let junctionSeq: number | undefined
  let id = leafId
  while (id) {
    const row: MessageRecord | undefined = cache.get(id) ?? await db.messages.get(id)
    if (!row || row.threadId !== threadId) break
    if (row.onPath) {
      junctionSeq = row.seq
      break
    }
    walked.push(row.id)
    id = row.parentId
  }
  // Every row on a path has a higher seq than its parent, so the old path beyond the junction is a seq range.
  await activePathRange(db, threadId, junctionSeq ?? Dexie.minKey, junctionSeq === undefined)
    .modify((row: MessageRecord) => { delete row.onPath })
  if (walked.length) await db.messages.bulkUpdate(walked.map(key => ({ key, changes: { onPath: 1 } })))
  await db.threads.update(threadId, { activeLeafId: leafId })
}

/**
 * The rows under `row` (itself first), in seq order: children are always created after their parent, so only rows
 * of a higher seq are read.
 */
export async function subtreeOf(db: PlugboardDatabase, row: MessageRecord): Promise<MessageRecord[]> {
  const later = await db.messages.where('[threadId+seq]').between([row.threadId, row.seq], [row.threadId, Dexie.maxKey]).toArray()
  const inside = new Set([row.id])
  const result: MessageRecord[] = []
  for (const candidate of later) {
    if (candidate.id === row.id || (candidate.parentId && inside.has(candidate.parentId))) {
      inside.add(candidate.id)
      result.push(candidate)
    }
  }
  return result
}

/** The rows sharing `row`'s parent (itself included), oldest first. First rows are siblings of each other. */
export async function siblingsOf(db: PlugboardDatabase, row: MessageRecord): Promise<MessageRecord[]> {
  // Read whole, then filtered here: a filtered query steps a cursor row by row, many times slower.
  const rows = row.parentId
    ? await db.messages.where('parentId').equals(row.parentId).toArray()
    : (await db.messages.where('[threadId+seq]').between([row.threadId, Dexie.minKey], [row.threadId, Dexie.maxKey]).toArray()).filter(candidate => !candidate.parentId)
  return rows.sort((a, b) => a.seq - b.seq)
}
