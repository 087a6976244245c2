/**
 * The end of a sign-in: the authorization server sent the browser back with `code` and `state`. The `state` must
 * be the one this client put in the authorization request it started (a callback it did not ask for, or one for
 * another server, is refused), and it must come from the authorization server asked (`iss`); then the SDK trades the code for tokens with the PKCE verifier.
 */
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpOAuthProvider } from './mcp-oauth-provider'
import type { McpSignInAnswer } from './mcp-sign-in-answer'
import { McpSignInError } from './mcp-sign-in-error'
import { checkAnswerIssuer } from './mcp-oauth-issuer'
import { explainMcpError } from '../mcp-error-text'

export type { McpSignInAnswer } from './mcp-sign-in-answer'
export { readSignInAnswer } from './mcp-sign-in-answer'
export { McpSignInError } from './mcp-sign-in-error'

/** True when `answer` belongs to the sign-in this provider started (its `state`). */
export async function isAnswerFor(provider: McpOAuthProvider, answer: McpSignInAnswer): Promise<boolean> {
  const { state } = await provider.record()
  return !!state && answer.state === state
}

/** Trades the code for tokens; throws a McpSignInError with a sentence for the user when it cannot. */
export async function finishMcpSignIn(provider: McpOAuthProvider, answer: McpSignInAnswer, options: { serverUrl: string, fetch?: FetchLike }): Promise<void> {
  if (!(await isAnswerFor(provider, answer))) throw new McpSignInError('The sign-in answer does not match the sign-in this page started (state). Press Sign in again.')
  // before anything else of the answer is believed, even its error: it must come from the server asked
  checkAnswerIssuer(answer, (await provider.record()).discovery)
  if (answer.error) throw new McpSignInError(`The server did not grant access: ${answer.errorDescription ?? answer.error}`)
  if (!answer.code) throw new McpSignInError('The sign-in answer has no authorization code. Press Sign in again.')
  let result
  try {
    result = await auth(provider, { serverUrl: options.serverUrl, authorizationCode: answer.code, fetchFn: options.fetch })
  }
  catch (error) {
    // the relay's refusal (a host it does not relay) and the like read as they do for the server itself
    throw new McpSignInError(`Signing in failed: ${explainMcpError(error).message}`, { cause: error })
  }
  if (result !== 'AUTHORIZED') throw new McpSignInError('Signing in did not finish. Press Sign in again.')
}

/** True for the SDK's "this server needs a sign-in" (the connection stops trying until the user signs in). */
export function isSignInNeeded(error: unknown): boolean {
  return error instanceof UnauthorizedError
}
