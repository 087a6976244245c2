import { Dexie } from 'dexie'
import type { PlugboardDatabase } from '../database'
import type { MessageRecord } from '../types'
import { activePathRange } from '../active-path'

/** Single reads of a thread's stored rows before the walk reads the whole thread at once instead. */
const SINGLE_READS = 8

/**
 * Marks the active path of a thread that a pulled page touched, from its active leaf up, without reading or writing
 * a row twice. `incoming` are the page's rows of this thread, not written yet (they carry the mark their stored
 * copy had): their marks are set here in memory and they are written by the caller afterwards. Stored rows are read
 * one by one while the walk meets the old path within a few steps (a new message in a long chat), and the whole
 * thread is read at once when it does not (a chat arriving on a new device). Call inside the apply transaction,
 * after the page's deleted messages are removed and before its rows are written.
 */
export async function markSyncedPath(db: PlugboardDatabase, threadId: string, leafId: string | undefined, incoming: ReadonlyMap<string, MessageRecord>): Promise<void> {
  const readStored = storedRowReader(db, threadId)
  const walked: MessageRecord[] = []
  let junctionSeq: number | undefined
  let id = leafId
  while (id) {
    const row = incoming.get(id) ?? await readStored(id)
    if (!row || row.threadId !== threadId) break
    if (row.onPath) {
      junctionSeq = row.seq
      break
    }
    walked.push(row)
    id = row.parentId
  }
  // Every row on a path has a higher seq than its parent, so the old path beyond the junction is a seq range.
  await activePathRange(db, threadId, junctionSeq ?? Dexie.minKey, junctionSeq === undefined)
    .modify((row: MessageRecord) => { delete row.onPath })
  const onPath = new Set(walked.map(row => row.id))
  for (const row of incoming.values()) {
    if (onPath.has(row.id)) (row as { onPath?: 1 }).onPath = 1
    else if (row.onPath && (junctionSeq === undefined || row.seq > junctionSeq)) delete (row as { onPath?: 1 }).onPath
  }
  const stored = walked.filter(row => !incoming.has(row.id))
  if (stored.length) await db.messages.bulkPut(stored.map(row => ({ ...row, onPath: 1 as const })))
}

function storedRowReader(db: PlugboardDatabase, threadId: string): (id: string) => Promise<MessageRecord | undefined> {
  let reads = 0
  let whole: Map<string, MessageRecord> | undefined
  return async (id) => {
    if (whole) return whole.get(id)
    if (++reads <= SINGLE_READS) return db.messages.get(id)
    const rows = await db.messages.where('[threadId+seq]').between([threadId, Dexie.minKey], [threadId, Dexie.maxKey]).toArray()
    whole = new Map(rows.map(row => [row.id, row]))
    return whole.get(id)
  }
}
