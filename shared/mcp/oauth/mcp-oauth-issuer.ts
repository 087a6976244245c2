/**
 * The mix-up defence of a sign-in: the client talks to the authorization server it discovered and no other. Its
 * metadata must name that server as `issuer` (RFC 8414 §3.3: a document that names another one may be an attacker's
 * copy), and the answer to an authorization request must come from it (RFC 9207: `iss`, required when the server
 * says it sends one), else an attacker's server could collect a code meant for another.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type { McpSignInAnswer } from './mcp-sign-in-answer'
import { McpSignInError } from './mcp-sign-in-error'

/** Two issuers compared as parsed URLs, tolerating one trailing `/` (a bare origin is spelt both ways). */
export function issuersMatch(a: string, b: string): boolean {
  let [x, y] = [a, b]
  try {
    [x, y] = [new URL(a).href, new URL(b).href]
  }
  catch {
    // not two URLs: compared as written
  }
  return x === y || x === `${y}/` || y === `${x}/`
}

/**
 * Refuses discovered metadata whose `issuer` is not the authorization server the protected resource named. A server
 * without resource metadata (2025-03-26) names none: its origin is where its metadata is read, not an issuer.
 */
export function checkDiscoveredIssuer(discovery: OAuthDiscoveryState): void {
  if (!discovery.resourceMetadata?.authorization_servers?.length) return
  const issuer = discovery.authorizationServerMetadata?.issuer
  if (issuer === undefined || issuersMatch(issuer, discovery.authorizationServerUrl)) return
  throw new McpSignInError(`The sign-in server's details name another server (${issuer}, not ${discovery.authorizationServerUrl}): signing in is refused to keep your account safe. Tell the server's operator.`)
}

/**
 * Refuses an answer that names another issuer, or names none when the server said it always does. Without
 * metadata the issuer is the authorization server's address.
 */
export function checkAnswerIssuer(answer: McpSignInAnswer, discovery: OAuthDiscoveryState | undefined): void {
  const metadata = discovery?.authorizationServerMetadata
  const expected = metadata?.issuer ?? discovery?.authorizationServerUrl
  if (answer.iss === undefined) {
    // RFC 9207's metadata field; the SDK's type predates it (its parser keeps unknown fields)
    const promised = (metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)?.authorization_response_iss_parameter_supported
    if (promised === true) throw new McpSignInError('The sign-in answer does not say which server sent it (iss), though that server always says so: it was refused to keep your account safe. Press Sign in again.')
    return
  }
  // RFC 9207 compares the metadata's issuer as written; only the address fallback is compared as a URL
  const matches = metadata?.issuer !== undefined ? answer.iss === metadata.issuer : expected !== undefined && issuersMatch(answer.iss, expected)
  if (!matches) throw new McpSignInError(`The sign-in answer came from another server (${answer.iss}) than the one this sign-in went to: it was refused to keep your account safe. Press Sign in again.`)
}
