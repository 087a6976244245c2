import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm'
import { winningChange } from '#shared/sync/merge-change'
import { MAX_CHANGES_PER_PULL, MAX_PULL_BYTES } from '#shared/sync/sync-limits'
import type { SyncChange, SyncedChange, SyncKind } from '#shared/sync/sync-record'
import type { Database } from '../database/open-database'
import { syncRecords, syncUsage } from '../database/database-schema'
import { SyncQuotaError } from './sync-quota-error'

export interface SyncCaps {
  /** Records an owner may keep (tombstones included). */
  maxRecords: number
  /** Bytes of bodies an owner may keep. */
  maxBytes: number
}

/** Defaults: room for tens of thousands of chats, bounded so one owner cannot fill the server's disk. */
export const DEFAULT_SYNC_CAPS: SyncCaps = { maxRecords: 500_000, maxBytes: 512 * 1024 * 1024 }

export interface SyncPushOutcome {
  applied: number
  cursor: number
}

/**
 * Synced records in the server's database, one row per (owner, kind, id) holding the winning change. A push is one
 * transaction under a per-owner lock: the changes of one owner are sequenced one push after another, so a device
 * that pulls past `seq` n never misses a change committed later with a smaller `seq`. Every query filters by owner.
 */
export function createSyncStore(db: Database | PromiseLike<Database>, caps: SyncCaps = DEFAULT_SYNC_CAPS) {
  return {
    async push(ownerId: string, changes: readonly SyncChange[]): Promise<SyncPushOutcome> {
      return (await db).transaction(async (transaction) => {
        await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sync:${ownerId}`}, 0))`)
        const incoming = new Map<string, SyncChange>()
        for (const change of changes) incoming.set(`${change.kind}:${change.id}`, winningChange(incoming.get(`${change.kind}:${change.id}`), change))
        const held = await transaction.select({ kind: syncRecords.kind, id: syncRecords.id, hlc: syncRecords.hlc, deleted: syncRecords.deleted, bytes: syncRecords.bytes })
          .from(syncRecords)
          // By kind, so the primary key's index finds each row (a computed key would read every row of the owner).
          .where(and(eq(syncRecords.ownerId, ownerId), or(...idsByKind(incoming.values()).map(([kind, ids]) => and(eq(syncRecords.kind, kind), inArray(syncRecords.id, ids))))))
        const current = new Map(held.map(row => [`${row.kind}:${row.id}`, row]))
        const winners: Array<typeof syncRecords.$inferInsert> = []
        let addedRecords = 0
        let addedBytes = 0
        for (const [key, change] of incoming) {
          const before = current.get(key)
          // The same change sent again (a retried push): its clock is its id.
          if (before && before.hlc === change.hlc && before.deleted === change.deleted) continue
          const beforeChange = before && { ...before, kind: before.kind as SyncKind, body: null }
          if (beforeChange && winningChange(beforeChange, change) !== change) continue
          const bytes = change.body ? Buffer.byteLength(JSON.stringify(change.body)) : 0
          addedRecords += before ? 0 : 1
          addedBytes += bytes - (before?.bytes ?? 0)
          winners.push({ ownerId, kind: change.kind, id: change.id, hlc: change.hlc, deleted: change.deleted, body: change.body, bytes })
        }
        const [usage] = await transaction.select().from(syncUsage).where(eq(syncUsage.ownerId, ownerId))
        const records = (usage?.records ?? 0) + addedRecords
        const bytes = (usage?.bytes ?? 0) + addedBytes
        if (addedRecords > 0 && records > caps.maxRecords) throw new SyncQuotaError('records', caps.maxRecords)
        if (addedBytes > 0 && bytes > caps.maxBytes) throw new SyncQuotaError('bytes', caps.maxBytes)
        if (winners.length > 0) {
          await transaction.insert(syncRecords).values(winners).onConflictDoUpdate({
            target: [syncRecords.ownerId, syncRecords.kind, syncRecords.id],
            set: {
              hlc: sql`excluded.hlc`,
              deleted: sql`excluded.deleted`,
              body: sql`excluded.body`,
              bytes: sql`excluded.bytes`,
              seq: sql`nextval(pg_get_serial_sequence('sync_records', 'seq'))`,
            },
          })
          await transaction.insert(syncUsage).values({ ownerId, records, bytes })
            .onConflictDoUpdate({ target: syncUsage.ownerId, set: { records, bytes } })
        }
        const [latest] = await transaction.select({ seq: sql<string | number | null>`max(${syncRecords.seq})` }).from(syncRecords).where(eq(syncRecords.ownerId, ownerId))
        return { applied: winners.length, cursor: Number(latest?.seq ?? 0) }
      })
    },

    /** The owner's changes after `cursor`, in order, a page at a time (bounded by count and bytes). */
    async pull(ownerId: string, cursor: number, limit = MAX_CHANGES_PER_PULL): Promise<{ changes: SyncedChange[], cursor: number, more: boolean }> {
      const rows = await (await db).select().from(syncRecords)
        .where(and(eq(syncRecords.ownerId, ownerId), gt(syncRecords.seq, cursor)))
        .orderBy(asc(syncRecords.seq))
        .limit(Math.min(limit, MAX_CHANGES_PER_PULL) + 1)
      const changes: SyncedChange[] = []
      let bytes = 0
      for (const row of rows.slice(0, limit)) {
        // A page always holds at least one change, however large, so a device never stalls on one record.
        if (changes.length > 0 && bytes + row.bytes > MAX_PULL_BYTES) break
        bytes += row.bytes
        changes.push({ kind: row.kind as SyncKind, id: row.id, hlc: row.hlc, deleted: row.deleted, body: row.body ?? null, seq: Number(row.seq) })
      }
      return { changes, cursor: changes.at(-1)?.seq ?? cursor, more: rows.length > changes.length }
    },
  }
}

export type SyncStore = ReturnType<typeof createSyncStore>

function idsByKind(changes: Iterable<SyncChange>): Array<[SyncKind, string[]]> {
  const byKind = new Map<SyncKind, string[]>()
  for (const change of changes) byKind.set(change.kind, [...byKind.get(change.kind) ?? [], change.id])
  return [...byKind]
}
