import { requireAdmin } from '../../utils/accounts/require-admin'
import { useAccountStore } from '../../utils/accounts/use-account-store'

/** GET /api/accounts (admin): every account of the server, oldest first. */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  return { accounts: await (await useAccountStore()).listAccounts() }
})
