// A step-up sign-in keeps the scopes already granted (SEP-2350): the new token replaces the old one, so asking for
// the challenged scope alone would lose what the old token could do.
import { describe, expect, it } from 'vitest'
import { createMcpOAuthProvider } from '#shared/mcp/oauth/mcp-oauth-provider'
import { withGrantedScopes } from '#shared/mcp/oauth/mcp-oauth-scope'
import { createMemoryOAuthStore } from '#shared/mcp/oauth/mcp-oauth-store'

const scopeOf = (url: URL) => url.searchParams.get('scope')

describe('MCP step-up scopes', () => {
  it('the authorization page asks for the challenged scope and the ones the current token has', async () => {
    const store = createMemoryOAuthStore()
    await store.write({ tokens: { access_token: 'a', token_type: 'Bearer', scope: 'mcp:read mcp:tools' } })
    const opened: URL[] = []
    const provider = createMcpOAuthProvider({ serverUrl: 'https://mcp.example/mcp', store, redirectUrl: 'http://127.0.0.1:9/cb', onAuthorizationUrl: url => void opened.push(url) })
    await provider.redirectToAuthorization(new URL('https://auth.example/authorize?scope=mcp%3Awrite&state=s'))
    expect(scopeOf(opened[0]!)).toBe('mcp:write mcp:read mcp:tools')
    expect(opened[0]!.searchParams.get('state')).toBe('s')
    expect((await store.read()).authorizationUrl).toBe(opened[0]!.href)
  })

  it('a first sign-in, or one that asks for no scope, is left as the SDK built it', () => {
    const first = new URL('https://auth.example/authorize?scope=mcp%3Aread')
    expect(withGrantedScopes(first, undefined)).toBe(first)
    const none = new URL('https://auth.example/authorize?state=s')
    expect(scopeOf(withGrantedScopes(none, 'mcp:read'))).toBeNull()
    expect(scopeOf(withGrantedScopes(first, 'mcp:read  mcp:read'))).toBe('mcp:read')
  })
})
