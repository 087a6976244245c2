import type { AuditRecord } from '~/db/types'

/** The columns of the CSV export, in order: [header, value of a row]. */
const CSV_COLUMNS: readonly [string, (row: AuditRecord) => string | number | boolean | undefined][] = [
  ['id', row => row.id],
  ['started_at', row => isoTime(row.startedAt)],
  ['tool', row => row.toolName],
  ['status', row => row.status],
  ['decision', row => row.decision],
  ['decided_at', row => isoTime(row.decidedAt)],
  ['duration_ms', row => row.durationMs],
  ['result_bytes', row => row.resultBytes],
  ['truncated', row => row.truncated],
  ['arguments_asked', row => row.argumentsAsked],
  ['arguments_run', row => row.argumentsRun],
  ['error', row => row.error],
  ['chat_id', row => row.threadId],
  ['chat_title', row => row.threadTitle],
  ['call_id', row => row.toolCallId],
  ['finished_at', row => isoTime(row.finishedAt)],
  ['requested_by', row => row.requestedBy],
]

function isoTime(ms: number | undefined): string | undefined {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined
}

/**
 * Characters that make a spreadsheet read a cell as a formula (=SUM, +cmd, -2+3, @IF; tab and CR too, and their
 * full-width forms some spreadsheet apps fold). Leading spaces do not protect: some apps trim them first.
 */
const FORMULA_START = /^[\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote, a line break or leading/trailing space, quotes
 * doubled. Text that a spreadsheet would run as a formula gets a leading apostrophe (OWASP's advice), so opening
 * an export can never run what a model wrote into a tool's arguments. Numbers and booleans are written as they are.
 */
export function csvCell(value: string | number | boolean | undefined | null): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The CSV header line, with its CRLF. */
export function auditCsvHeader(): string {
  return `${CSV_COLUMNS.map(([header]) => header).join(',')}\r\n`
}

/** One run as a CSV line, with its CRLF. */
export function auditCsvLine(row: AuditRecord): string {
  return `${CSV_COLUMNS.map(([, value]) => csvCell(value(row))).join(',')}\r\n`
}

/** One run as it appears in the JSON export: the stored fields, times also as ISO text. */
export function auditJsonEntry(row: AuditRecord): Record<string, unknown> {
  return { ...row, startedAtIso: isoTime(row.startedAt), decidedAtIso: isoTime(row.decidedAt), finishedAtIso: isoTime(row.finishedAt) }
}

/**
 * The export's text in parts (for a Blob), built one run at a time from `each`, which visits the runs newest first:
 * the table is never read into an array of rows.
 */
export async function buildAuditExport(format: 'json' | 'csv', each: (visit: (row: AuditRecord) => void) => Promise<void>): Promise<string[]> {
  if (format === 'csv') {
    const parts = [auditCsvHeader()]
    await each(row => parts.push(auditCsvLine(row)))
    return parts
  }
  const parts: string[] = ['[']
  let first = true
  await each((row) => {
    parts.push(`${first ? '\n' : ',\n'}  ${JSON.stringify(auditJsonEntry(row))}`)
    first = false
  })
  parts.push(first ? ']\n' : '\n]\n')
  return parts
}
