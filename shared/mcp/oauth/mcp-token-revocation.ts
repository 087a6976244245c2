/**
 * Sign-out's last step: the tokens handed back to the authorization server (RFC 7009) when its metadata advertises
 * a `revocation_endpoint`, so a token copied from this browser stops working too. The refresh token goes first
 * (revoking it usually ends its access tokens as well), then the access token. A server without the endpoint, or
 * one that fails, leaves the tokens to expire: the sign-out has already forgotten them either way.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpOAuthRecord } from './mcp-oauth-store'

export type McpTokenRevocation = 'revoked' | 'not-offered' | 'failed'

export interface RevokeMcpTokensOptions {
  /** @default globalThis.fetch */
  fetch?: FetchLike
  /** Each request's time. @default 5_000 */
  timeoutMs?: number
}

/** The revocation endpoint the record's discovery found, when it is an http(s) URL. */
function revocationEndpoint(record: McpOAuthRecord): URL | undefined {
  // OAuth metadata has it (RFC 8414); the SDK's type for OpenID provider metadata does not name it
  const metadata = record.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined
  const endpoint = metadata?.revocation_endpoint
  if (typeof endpoint !== 'string' || !URL.canParse(endpoint)) return undefined
  const url = new URL(endpoint)
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined
}

/** Revokes the record's tokens (the record as it was before sign-out forgot them). */
export async function revokeMcpTokens(record: McpOAuthRecord, options: RevokeMcpTokensOptions = {}): Promise<McpTokenRevocation> {
  const endpoint = revocationEndpoint(record)
  const client = record.clientInformation
  if (!endpoint || !client || !record.tokens) return 'not-offered'
  const send = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args))
  const tokens: Array<[string, string]> = []
  if (record.tokens.refresh_token) tokens.push([record.tokens.refresh_token, 'refresh_token'])
  tokens.push([record.tokens.access_token, 'access_token'])
  let failed = false
  for (const [token, hint] of tokens) {
    const body = new URLSearchParams({ token, token_type_hint: hint, client_id: client.client_id })
    if ('client_secret' in client && typeof client.client_secret === 'string') body.set('client_secret', client.client_secret)
    try {
      const response = await send(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'application/json' },
        body: body.toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      })
      await response.body?.cancel().catch(() => {})
      if (!response.ok) failed = true
    }
    catch {
      failed = true
    }
  }
  return failed ? 'failed' : 'revoked'
}
