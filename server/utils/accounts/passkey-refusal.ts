import { createError, isError } from 'h3'

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
    throw createError({ statusCode: 401, statusMessage: 'Unauthorized', message: 'This passkey was refused: its use count went backwards, as a copied passkey\'s does. Sign in with the passkey on your own device.' })
  }
  throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'This passkey answer could not be verified. Try again.' })
}
