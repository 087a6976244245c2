import { requireAdmin } from '../../utils/accounts/require-admin'
import { useAccountStore } from '../../utils/accounts/use-account-store'
import { userError } from '../../utils/http/user-error'

/**
 * DELETE /api/accounts/:id (admin): removes a member with its passkeys, invites and workflows. Its sessions end at
 * once: every request looks its account up. The admin cannot remove themself (the server would have none).
 */
export default defineEventHandler(async (event) => {
  const admin = await requireAdmin(event)
  const id = getRouterParam(event, 'id') ?? ''
  if (id === admin.accountId) throw userError(400, 'Bad Request', 'server.account.adminCannotLeave')
  if (!(await (await useAccountStore()).removeAccount(id))) throw userError(404, 'Not Found', 'server.account.noSuchAccount')
  return { removed: true }
})
