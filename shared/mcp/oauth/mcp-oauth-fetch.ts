/**
 * The fetch of a connection signed in with OAuth: a request the server refuses (401) with the stored access token
 * gets that token renewed once under the server's lock (a refresh another request or tab already made is reused,
 * never repeated) and is sent again. Anything else, and a renewal that fails, goes back to the SDK as it came: it
 * then asks for a sign-in.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpOAuthProvider } from './mcp-oauth-provider'

export function withTokenRenewal(fetch: FetchLike, provider: Pick<McpOAuthProvider, 'renewRejected'>): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (response.status !== 401) return response
    const headers = new Headers(init?.headers)
    const sent = /^Bearer (.+)$/i.exec(headers.get('authorization') ?? '')?.[1]
    // a body that is a stream cannot be sent twice; the transport sends JSON text
    if (!sent || (init?.body !== undefined && typeof init.body !== 'string')) return response
    const renewed = await provider.renewRejected(sent)
    if (!renewed) return response
    await response.body?.cancel().catch(() => {})
    headers.set('authorization', `Bearer ${renewed.access_token}`)
    return fetch(input, { ...init, headers })
  }
}
