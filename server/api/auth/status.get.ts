import { accountsMode } from '../../utils/accounts/accounts-mode'
import { useAccountStore } from '../../utils/accounts/use-account-store'
import { accessPassword } from '../../utils/security/api-access'
import { isSignedIn, readBrowserSession } from '../../utils/security/browser-session'

/**
 * GET /api/auth/status: whether this server asks for a password or an account, and whether this browser is signed
 * in. With accounts: the account (name, role), and whether the first account, the admin, is still to be made.
 */
export default defineEventHandler(async (event) => {
  const accounts = accountsMode(event)
  const session = await readBrowserSession(event)
  if (accounts === 'passkeys') {
    const store = await useAccountStore()
    const account = session?.accountId ? await store.getAccount(session.accountId) : undefined
    return {
      passwordRequired: false,
      accounts,
      signedIn: !!account,
      account: account ? { id: account.id, name: account.name, role: account.role } : null,
      adminNeeded: !account && (await store.countAccounts()) === 0,
    }
  }
  const password = accessPassword(event)
  // without accounts the answer is what it always was (no `accounts` field means off)
  return { passwordRequired: password !== '', signedIn: password === '' || isSignedIn(session, password) }
})
