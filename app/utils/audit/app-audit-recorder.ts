import { createAuditRecorder, type AuditRecorder } from '~/db/audit-recorder'
import { auditCutoff, readAuditRetention } from './audit-retention'

/** The app's audit recorder: prunes by the retention chosen on the audit page (read at each prune). */
export function createAppAuditRecorder(): AuditRecorder {
  return createAuditRecorder({
    cutoff: () => auditCutoff(readAuditRetention()),
    onStorageError: error => console.error('[plugboard] could not write the audit log:', error),
  })
}
