import { requireAdmin } from '../../utils/accounts/require-admin'
import { useAccountStore } from '../../utils/accounts/use-account-store'

/**
 * DELETE /api/accounts/:id (admin): removes a member with its passkeys, invites and workflows. Its sessions end at
 * once: every request looks its account up. The admin cannot remove themself (the server would have none).
 */
export default defineEventHandler(async (event) => {
  const admin = await requireAdmin(event)
  const id = getRouterParam(event, 'id') ?? ''
  if (id === admin.accountId) throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The admin account cannot remove itself.' })
  if (!(await (await useAccountStore()).removeAccount(id))) throw createError({ statusCode: 404, statusMessage: 'Not Found', message: 'No such account.' })
  return { removed: true }
})
