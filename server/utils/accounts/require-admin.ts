import type { H3Event } from 'h3'
import { requireAccountsOn } from './passkey-ceremony'
import { requireOwner } from './request-owner'
import type { RequestOwner } from './request-owner'
import { userError } from '../http/user-error'

/** The signed-in admin, or 401 (no account) / 403 (a member). */
export async function requireAdmin(event: H3Event): Promise<RequestOwner & { accountId: string }> {
  requireAccountsOn(event)
  const owner = await requireOwner(event)
  if (owner.role !== 'admin' || !owner.accountId) throw userError(403, 'Forbidden', 'server.account.adminOnly')
  return { ...owner, accountId: owner.accountId }
}
