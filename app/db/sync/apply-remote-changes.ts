import { Dexie } from 'dexie'
import { compareHlc } from '#shared/sync/hlc'
import { LOCAL_ONLY_FIELDS, recordKey, SYNC_KINDS } from '#shared/sync/sync-record'
import type { SyncedChange, SyncKind } from '#shared/sync/sync-record'
import type { PlugboardDatabase } from '../database'
import type { MessageRecord } from '../types'
import { deviceClock } from './sync-outbox'
import { markSyncedPath } from './synced-paths'

/** Past this many rows the outbox is read row by row for a page instead of whole. */
const OUTBOX_READ_WHOLE = 5_000

/**
 * The outbox rows of a page's records. The outbox is empty or small (on a new device it is empty), so it is read
 * whole when it is small: one request instead of one per change.
 */
async function outboxRowsOf(db: PlugboardDatabase, changes: readonly SyncedChange[]) {
  const keys = changes.map(change => recordKey(change.kind, change.id))
  const size = await db.syncOutbox.count()
  if (size === 0) return keys.map(() => undefined)
  if (size > OUTBOX_READ_WHOLE) return db.syncOutbox.bulkGet(keys)
  const rows = new Map((await db.syncOutbox.toArray()).map(row => [row.key, row]))
  return keys.map(key => rows.get(key))
}

/**
 * The stored copies of a page's messages. A message never moves to another chat, so only the ids that the touched
 * chats hold (one key read per chat) are read; a page of new chats reads no rows at all. A change without a body
 * (a delete) does not name its chat: it is read by id.
 */
async function storedMessagesOf(db: PlugboardDatabase, changes: readonly SyncedChange[]): Promise<Array<Record<string, unknown> | undefined>> {
  const threadIds = [...new Set(changes.map(change => change.body?.threadId).filter((id): id is string => typeof id === 'string'))]
  const held = new Set((await Promise.all(threadIds.map(threadId =>
    db.messages.where('[threadId+seq]').between([threadId, Dexie.minKey], [threadId, Dexie.maxKey]).primaryKeys()))).flat())
  const wanted = changes.filter(change => typeof change.body?.threadId !== 'string' || held.has(change.id)).map(change => change.id)
  const rows = new Map((await db.messages.bulkGet(wanted)).filter(row => row !== undefined).map(row => [row.id, row]))
  return changes.map(change => rows.get(change.id) as Record<string, unknown> | undefined)
}

function tableOf(db: PlugboardDatabase, kind: SyncKind) {
  return kind === 'thread' ? db.threads : kind === 'message' ? db.messages : db.presets
}

/**
 * Writes the server's changes into Dexie and moves the cursor past them, in one transaction. A record with a newer
 * write of ours still in the outbox keeps ours (the server will take it when it is pushed); otherwise the server's
 * change is the winner and replaces the row, keeping the fields that describe this device only. The active path of
 * each touched chat is marked again from its thread's active leaf, on the page's rows before they are written, so a
 * page costs a few bulk reads and writes whatever its size.
 */
export async function applyRemoteChanges(db: PlugboardDatabase, changes: readonly SyncedChange[], cursor: number): Promise<void> {
  await db.transaction('rw', [db.threads, db.messages, db.presets, db.attachments, db.documentPassages, db.serverJobs, db.syncOutbox, db.syncState], async () => {
    const pending = await outboxRowsOf(db, changes)
    const winners: SyncedChange[] = []
    const settled: string[] = []
    for (const [index, change] of changes.entries()) {
      try {
        deviceClock.receive(change.hlc)
      }
      catch {
        // A clock far ahead: merged all the same, but ours is not dragged along with it.
      }
      const ours = pending[index]
      if (ours && compareHlc(ours.hlc, change.hlc) > 0 && !(change.kind === 'message' && change.deleted)) continue
      if (ours) settled.push(ours.key)
      winners.push(change)
    }
    await db.syncOutbox.bulkDelete(settled)
    // Each thread's incoming messages, written last: their path marks are decided in memory first.
    const touchedThreads = new Map<string, Map<string, MessageRecord>>()
    const touch = (threadId: unknown) => {
      if (typeof threadId === 'string' && !touchedThreads.has(threadId)) touchedThreads.set(threadId, new Map())
    }
    let messageRows: Record<string, unknown>[] = []
    for (const kind of SYNC_KINDS) {
      // The last change of a record in this page is its latest.
      const ofKind = [...new Map(winners.filter(change => change.kind === kind).map(change => [change.id, change])).values()]
      if (ofKind.length === 0) continue
      const table = tableOf(db, kind) as unknown as Dexie.Table<Record<string, unknown>, string>
      const existing = kind === 'message' ? await storedMessagesOf(db, ofKind) : await table.bulkGet(ofKind.map(change => change.id))
      const rows: Record<string, unknown>[] = []
      const removed: string[] = []
      ofKind.forEach((change, index) => {
        const before = existing[index]
        if (kind === 'thread') touch(change.id)
        if (kind === 'message') touch((change.body ?? before)?.threadId)
        if (change.deleted || !change.body) return void removed.push(change.id)
        const row: Record<string, unknown> = { ...change.body }
        for (const field of LOCAL_ONLY_FIELDS[kind]) {
          if (before?.[field] !== undefined) row[field] = before[field]
          else delete row[field]
        }
        rows.push(row)
        if (kind === 'message') touchedThreads.get(String(row.threadId))?.set(String(row.id), row as unknown as MessageRecord)
      })
      await table.bulkDelete(removed)
      // A chat deleted on another device stops being followed here (its job, if any, goes on on the server).
      if (kind === 'thread' && removed.length > 0) await db.serverJobs.bulkDelete(removed)
      // A removed message (a deleted branch or chat) takes its files with it on this device too.
      if (kind === 'message' && removed.length > 0) {
        const files = await db.attachments.where('messageId').anyOf(removed).primaryKeys()
        await db.attachments.bulkDelete(files)
        await db.documentPassages.where('attachmentId').anyOf(files).delete()
      }
      if (kind === 'message') messageRows = rows
      else await table.bulkPut(rows)
    }
    const threads = await db.threads.bulkGet([...touchedThreads.keys()])
    for (const thread of threads) {
      if (thread) await markSyncedPath(db, thread.id, thread.activeLeafId, touchedThreads.get(thread.id)!)
    }
    await db.messages.bulkPut(messageRows as unknown as MessageRecord[])
    await db.syncState.put({ key: 'cursor', value: cursor })
  })
}
