import { accessPassword } from '../../utils/security/api-access'
import { isSignedIn, readBrowserSession } from '../../utils/security/browser-session'

/** GET /api/auth/status: whether this server asks for a password, and whether this browser is signed in. */
export default defineEventHandler(async (event) => {
  const password = accessPassword(event)
  return { passwordRequired: password !== '', signedIn: password === '' || isSignedIn(await readBrowserSession(event), password) }
})
