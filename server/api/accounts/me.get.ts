import { requireAccountsOn } from '../../utils/accounts/passkey-ceremony'
import { requireOwner } from '../../utils/accounts/request-owner'
import { useAccountStore } from '../../utils/accounts/use-account-store'
import { userError } from '../../utils/http/user-error'

/** GET /api/accounts/me: the signed-in account and its passkeys (when they were added, never their keys). */
export default defineEventHandler(async (event) => {
  requireAccountsOn(event)
  const { accountId } = await requireOwner(event)
  const store = await useAccountStore()
  const account = await store.getAccount(accountId ?? '')
  if (!account) throw userError(401, 'Unauthorized', 'server.account.signInToSee')
  const passkeys = (await store.listPasskeys(account.id)).map(passkey => ({ id: passkey.credentialId.slice(0, 12), createdAt: passkey.createdAt, transports: passkey.transports }))
  return { account, passkeys }
})
