import { isError } from 'h3'
import { userError } from '../http/user-error'

/**
 * A WebAuthn answer the verifier refuses, as an answer with words. The verifier throws plain errors (a bad
 * signature, a wrong challenge, a use count that went backwards), which would otherwise reach the browser as a 500
 * "server error"; errors the routes made themselves (400, 401, 403) pass through as they are.
 */
export function passkeyRefusal(error: unknown): never {
  if (isError(error)) throw error
  const reason = error instanceof Error ? error.message : String(error)
  // A use count lower than the last one seen is what a copied authenticator shows (WebAuthn §6.1.1).
  if (/counter/i.test(reason)) {
    throw userError(401, 'Unauthorized', 'server.passkey.copied')
  }
  throw userError(400, 'Bad Request', 'server.passkey.unverified')
}
