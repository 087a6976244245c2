import { Dexie } from 'dexie'
import { compareHlc } from '#shared/sync/hlc'
import { LOCAL_ONLY_FIELDS, recordKey } from '#shared/sync/sync-record'
import type { SyncedChange, SyncKind } from '#shared/sync/sync-record'
import type { PlugboardDatabase } from '../database'
import { activePathRange, setActivePath } from '../active-path'
import { deviceClock } from './sync-outbox'

function tableOf(db: PlugboardDatabase, kind: SyncKind) {
  return kind === 'thread' ? db.threads : kind === 'message' ? db.messages : db.presets
}

/**
 * Writes the server's changes into Dexie and moves the cursor past them, in one transaction. A record with a newer
 * write of ours still in the outbox keeps ours (the server will take it when it is pushed); otherwise the server's
 * change is the winner and replaces the row, keeping the fields that describe this device only. The active path of
 * each touched chat is marked again from its thread's active leaf.
 */
export async function applyRemoteChanges(db: PlugboardDatabase, changes: readonly SyncedChange[], cursor: number): Promise<void> {
  await db.transaction('rw', [db.threads, db.messages, db.presets, db.syncOutbox, db.syncState], async () => {
    const pending = await db.syncOutbox.bulkGet(changes.map(change => recordKey(change.kind, change.id)))
    const touchedThreads = new Set<string>()
    for (const [index, change] of changes.entries()) {
      try {
        deviceClock.receive(change.hlc)
      }
      catch {
        // A clock far ahead: merged all the same, but ours is not dragged along with it.
      }
      const ours = pending[index]
      const oursWins = ours && compareHlc(ours.hlc, change.hlc) > 0 && !(change.kind === 'message' && change.deleted)
      if (oursWins) continue
      if (ours) await db.syncOutbox.delete(ours.key)
      const table = tableOf(db, change.kind) as unknown as Dexie.Table<Record<string, unknown>, string>
      const existing = await table.get(change.id)
      if (change.kind === 'message') touchedThreads.add(String((change.body ?? existing)?.threadId ?? ''))
      if (change.kind === 'thread') touchedThreads.add(change.id)
      if (change.deleted || !change.body) {
        await table.delete(change.id)
        continue
      }
      const row: Record<string, unknown> = { ...change.body }
      for (const field of LOCAL_ONLY_FIELDS[change.kind]) {
        if (existing?.[field] !== undefined) row[field] = existing[field]
        else delete row[field]
      }
      await table.put(row)
    }
    for (const threadId of touchedThreads) {
      const thread = threadId ? await db.threads.get(threadId) : undefined
      if (!thread) continue
      await activePathRange(db, threadId, Dexie.minKey).modify((row) => { delete row.onPath })
      await setActivePath(db, threadId, thread.activeLeafId)
    }
    await db.syncState.put({ key: 'cursor', value: cursor })
  })
}
