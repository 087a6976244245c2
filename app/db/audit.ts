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

/** The filter's runs, newest first, read through a cursor (never the whole table at once). */
function filtered(filter: AuditFilter) {
  const collection = getDatabase().audit.where('startedAt').between(filter.from ?? -Infinity, filter.to ?? Infinity, true, true).reverse()
  const { toolName, status } = filter
  if (!toolName && !status) return collection
  return collection.filter(row => (!toolName || row.toolName === toolName) && (!status || row.status === status))
}

/** One page of the filter's runs, newest first. */
export function listAuditPage(filter: AuditFilter, page: { offset: number, limit: number }): Promise<AuditRecord[]> {
  return filtered(filter).offset(Math.max(0, page.offset)).limit(Math.max(0, page.limit)).toArray()
}

/** How many runs the filter matches. */
export function countAudit(filter: AuditFilter): Promise<number> {
  return filtered(filter).count()
}

/** Calls `visit` with each of the filter's runs, newest first, one at a time (for exports). */
export function eachAuditRecord(filter: AuditFilter, visit: (row: AuditRecord) => void): Promise<void> {
  return filtered(filter).each(row => visit(row))
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
