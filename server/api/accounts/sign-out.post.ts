import { requireAccountsOn } from '../../utils/accounts/passkey-ceremony'
import { signOutAccountSession } from '../../utils/security/browser-session'

/** POST /api/accounts/sign-out: this browser stops acting for its account (a plain session is left for the page). */
export default defineEventHandler(async (event) => {
  requireAccountsOn(event)
  await signOutAccountSession(event)
  return { signedIn: false }
})
