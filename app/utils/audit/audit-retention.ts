/** Where the audit log's retention is kept (this browser, all tabs). */
export const AUDIT_RETENTION_STORAGE_KEY = 'plugboard:audit-retention:v1'

/** How long runs stay in the audit log. */
export type AuditRetention = '7' | '30' | '90' | 'forever'

export const AUDIT_RETENTION_OPTIONS: readonly { value: AuditRetention, label: string }[] = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: 'forever', label: 'Forever' },
]

/** Kept long enough to look back over a quarter; the user can shorten it or keep everything. */
export const DEFAULT_AUDIT_RETENTION: AuditRetention = '90'

const DAY_MS = 24 * 60 * 60 * 1000

/** A stored value we understand, else the default (text written by hand or by another version is not trusted). */
export function parseAuditRetention(value: unknown): AuditRetention {
  return AUDIT_RETENTION_OPTIONS.some(option => option.value === value) ? value as AuditRetention : DEFAULT_AUDIT_RETENTION
}

/** The saved retention; the default when storage is blocked or holds something else. */
export function readAuditRetention(storage: Pick<Storage, 'getItem'> | null | undefined = safeLocalStorage()): AuditRetention {
  try {
    // useLocalStorage writes the raw string for a string default
    return parseAuditRetention(storage?.getItem(AUDIT_RETENTION_STORAGE_KEY))
  }
  catch {
    return DEFAULT_AUDIT_RETENTION
  }
}

/** The oldest start time kept (ms since the epoch), or undefined when the log is kept forever. */
export function auditCutoff(retention: AuditRetention, now = Date.now()): number | undefined {
  return retention === 'forever' ? undefined : now - Number(retention) * DAY_MS
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  }
  catch {
    return null
  }
}
