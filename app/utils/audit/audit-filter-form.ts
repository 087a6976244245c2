import type { AuditFilter } from '~/db/audit'
import type { AuditStatus } from '~/db/types'

/** A `<input type="date">` value (YYYY-MM-DD) as local midnight, or undefined when it is empty or not a date. */
function localDayStart(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return undefined
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
  return Number.isNaN(date.getTime()) ? undefined : date.getTime()
}

/**
 * The query for the audit page's form: '' means any; the date range covers whole local days, both ends included
 * ("To 22 Nov" keeps the runs of the 22nd).
 */
export function toAuditFilter(form: { toolName: string, status: '' | AuditStatus, fromDate: string, toDate: string }): AuditFilter {
  const filter: AuditFilter = {}
  if (form.toolName) filter.toolName = form.toolName
  if (form.status) filter.status = form.status
  const from = localDayStart(form.fromDate)
  if (from !== undefined) filter.from = from
  const toStart = localDayStart(form.toDate)
  if (toStart !== undefined) {
    const next = new Date(toStart)
    next.setDate(next.getDate() + 1)
    filter.to = next.getTime() - 1
  }
  return filter
}
