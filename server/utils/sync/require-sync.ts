import { syncEnabled } from './use-sync'
import { userError } from '../http/user-error'

/** Refuses a sync route with 404 when the operator has not turned sync on. */
export function requireSync(): void {
  if (!syncEnabled()) throw userError(404, 'Not Found', 'server.sync.off')
}
