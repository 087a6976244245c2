import { getDatabase } from './database'
import type { AuditRecord, AuditStatus } from './types'

/** What the audit page filters by; every field is optional and they combine. */
export interface AuditFilter {
  toolName?: string
  status?: AuditStatus
  /** Runs logged at or after this time (ms since the epoch). */
  from?: number
  /** Runs logged at or before this time (ms since the epoch). */
  to?: number
}

/** Where a page ends: the last run shown (the list is ordered by start time, then id, newest first). */
export interface AuditCursor {
  startedAt: number
  id: string
}

/**
 * The filter's runs, newest first, read through an IndexedDB cursor (never the whole table at once). With `after`,
 * only the runs that come after that one in this order: the range starts there, so a page costs what it reads,
 * not what came before it (an offset would walk every earlier run again).
 */
function filtered(filter: AuditFilter, after?: AuditCursor) {
  const upper = Math.min(filter.to ?? Infinity, after?.startedAt ?? Infinity)
  const collection = getDatabase().audit.where('startedAt').between(filter.from ?? -Infinity, upper, true, true).reverse()
  const { toolName, status } = filter
  if (!toolName && !status && !after) return collection
  return collection.filter(row => (!after || row.startedAt < after.startedAt || row.id < after.id)
    && (!toolName || row.toolName === toolName) && (!status || row.status === status))
}

/** One page of the filter's runs, newest first: the first `limit`, or the `limit` after the cursor. */
export function listAuditPage(filter: AuditFilter, page: { after?: AuditCursor, limit: number }): Promise<AuditRecord[]> {
  return filtered(filter, page.after).limit(Math.max(0, page.limit)).toArray()
}

/** How many runs the filter matches. */
export function countAudit(filter: AuditFilter): Promise<number> {
  return filtered(filter).count()
}

/**
 * Calls `visit` with each of the filter's runs, newest first (for exports). Reads `batchSize` runs per short
 * transaction: memory stays bounded, and runs logged meanwhile (newer than the first) never shift the batches.
 */
export async function eachAuditRecord(filter: AuditFilter, visit: (row: AuditRecord) => void, batchSize = 500): Promise<void> {
  let after: AuditCursor | undefined
  for (;;) {
    const batch = await listAuditPage(filter, { after, limit: batchSize })
    batch.forEach(row => visit(row))
    if (batch.length < batchSize) return
    const last = batch.at(-1)!
    after = { startedAt: last.startedAt, id: last.id }
  }
}

/** The names of the tools that have runs in the log, sorted (for the tool filter). */
export async function listAuditToolNames(): Promise<string[]> {
  return (await getDatabase().audit.orderBy('toolName').uniqueKeys()).map(String)
}

/** One run, or undefined. */
export function getAuditRecord(id: string): Promise<AuditRecord | undefined> {
  return getDatabase().audit.get(id)
}

/** Deletes the runs logged before `cutoff` (ms since the epoch); returns how many went. */
export function pruneAudit(cutoff: number): Promise<number> {
  return getDatabase().audit.where('startedAt').below(cutoff).delete()
}

/** Empties the log. */
export function clearAudit(): Promise<void> {
  return getDatabase().audit.clear()
}
