import { MAX_CHANGES_PER_PUSH, MAX_PUSH_BYTES, MAX_RECORD_BYTES } from '#shared/sync/sync-limits'
import { syncBodyOf } from '#shared/sync/sync-record'
import type { SyncChange, SyncKind } from '#shared/sync/sync-record'
import type { PlugboardDatabase } from '../database'
import { isWriting } from '../message-status'
import type { MessageStatus } from '../types'
import type { SyncOutboxRow } from './sync-outbox'

export interface OutboxBatch {
  changes: SyncChange[]
  /** The outbox rows the changes were made from: removed once the server has them, unless written again since. */
  rows: SyncOutboxRow[]
  /** Rows whose record is too large to sync: removed from the outbox and counted, never sent. */
  tooLarge: SyncOutboxRow[]
}

/** Room in a push body for everything but the records. */
const ENVELOPE_BYTES = 64 * 1024

/**
 * The next push: the oldest outbox rows, each read as the record's current row (a tombstone when it is gone),
 * bounded by the protocol's count and bytes.
 */
export async function nextOutboxBatch(db: PlugboardDatabase): Promise<OutboxBatch> {
  const rows = await db.syncOutbox.orderBy('hlc').limit(MAX_CHANGES_PER_PUSH).toArray()
  const byKind = new Map<SyncKind, SyncOutboxRow[]>()
  for (const row of rows) byKind.set(row.kind, [...byKind.get(row.kind) ?? [], row])
  const records = new Map<string, Record<string, unknown> | undefined>()
  for (const [kind, ofKind] of byKind) {
    const table = (kind === 'thread' ? db.threads : kind === 'message' ? db.messages : db.presets) as unknown as { bulkGet: (keys: string[]) => Promise<Array<Record<string, unknown> | undefined>> }
    const found = await table.bulkGet(ofKind.map(row => row.id))
    ofKind.forEach((row, index) => records.set(row.key, found[index]))
  }
  const batch: OutboxBatch = { changes: [], rows: [], tooLarge: [] }
  let bytes = ENVELOPE_BYTES
  for (const row of rows) {
    const record = records.get(row.key)
    // a reply still being written is sent once it settles, so a streamed reply travels once, whole
    if (record && row.kind === 'message' && isWriting(record.status as MessageStatus)) continue
    const body = record ? syncBodyOf(row.kind, record) : null
    const size = body ? JSON.stringify(body).length : 64
    if (size > MAX_RECORD_BYTES) {
      batch.tooLarge.push(row)
      continue
    }
    if (bytes + size > MAX_PUSH_BYTES) break
    bytes += size
    batch.changes.push({ kind: row.kind, id: row.id, hlc: row.hlc, deleted: !body, body })
    batch.rows.push(row)
  }
  return batch
}

/** Removes the rows the server now holds, unless the record was written again meanwhile (a later clock). */
export async function settleOutbox(db: PlugboardDatabase, sent: readonly SyncOutboxRow[]): Promise<void> {
  await db.transaction('rw', db.syncOutbox, db.syncState, async () => {
    const current = await db.syncOutbox.bulkGet(sent.map(row => row.key))
    const done = sent.filter((row, index) => current[index]?.hlc === row.hlc).map(row => row.key)
    await db.syncOutbox.bulkDelete(done)
  })
}

/** Puts every local thread, message and preset into the outbox: the one-time upload the user agreed to. */
export async function enqueueEverything(db: PlugboardDatabase, clock: () => string): Promise<number> {
  return db.transaction('rw', [db.threads, db.messages, db.presets, db.syncOutbox, db.syncState], async () => {
    const [threads, messages, presets] = await Promise.all([db.threads.toCollection().primaryKeys(), db.messages.toCollection().primaryKeys(), db.presets.toCollection().primaryKeys()])
    const rows: SyncOutboxRow[] = [
      ...threads.map(id => ({ key: `thread:${id}`, kind: 'thread' as const, id, hlc: clock() })),
      ...messages.map(id => ({ key: `message:${id}`, kind: 'message' as const, id, hlc: clock() })),
      ...presets.map(id => ({ key: `preset:${id}`, kind: 'preset' as const, id, hlc: clock() })),
    ]
    await db.syncOutbox.bulkPut(rows)
    return threads.length
  })
}
