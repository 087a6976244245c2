import type { H3Event } from 'h3'
import { requireAccountsOn } from './passkey-ceremony'
import { requireOwner } from './request-owner'
import type { RequestOwner } from './request-owner'

/** The signed-in admin, or 401 (no account) / 403 (a member). */
export async function requireAdmin(event: H3Event): Promise<RequestOwner & { accountId: string }> {
  requireAccountsOn(event)
  const owner = await requireOwner(event)
  if (owner.role !== 'admin' || !owner.accountId) throw createError({ statusCode: 403, statusMessage: 'Forbidden', message: 'Only the admin can do this.' })
  return { ...owner, accountId: owner.accountId }
}
