import { readBoundedJson } from '../../utils/http/read-bounded-body'
import { SMALL_BODY_LIMIT_BYTES } from '../../utils/http/request-limits'
import { accessPasswordMatches } from '../../utils/security/access-password'
import { accessPassword } from '../../utils/security/api-access'
import { signInBrowserSession } from '../../utils/security/browser-session'
import { consumeRateLimit } from '../../utils/security/rate-limit'
import { userError } from '../../utils/http/user-error'

/** POST /api/auth/sign-in `{ password }`: signs this browser in when the password is the operator's. */
export default defineEventHandler(async (event) => {
  const password = accessPassword(event)
  if (!password) return { signedIn: true }
  // Counted per IP before the password is looked at, so guessing is slow whatever the answer.
  await consumeRateLimit(event, 'sign-in', undefined)
  const body = await readBoundedJson(event, SMALL_BODY_LIMIT_BYTES) as { password?: unknown } | undefined
  if (!accessPasswordMatches(body?.password, password)) {
    throw userError(401, 'Unauthorized', 'server.auth.wrongPassword')
  }
  await signInBrowserSession(event, password)
  return { signedIn: true }
})
