// Sign-out of an MCP server that asked for OAuth, against a real authorization server and MCP server that keep
// sessions and revoke tokens: the session is ended on the server (DELETE with its Mcp-Session-Id) while its token
// still works, the tokens are forgotten in this browser, then revoked, and the server asks for a sign-in again.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import type { McpConnection } from '#shared/mcp/mcp-connection'
import { withTokenRenewal } from '#shared/mcp/oauth/mcp-oauth-fetch'
import { readSignInAnswer } from '#shared/mcp/oauth/mcp-sign-in'
import { revokeMcpTokens } from '#shared/mcp/oauth/mcp-token-revocation'
import { createMcpServerSignIn } from '../../app/utils/chat/mcp/mcp-server-sign-in'
import { mcpOAuthStorageKey } from '../../app/utils/chat/mcp/mcp-oauth-browser'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    read: (key: string) => JSON.parse(items.get(key) ?? '{}') as { tokens?: { access_token: string, refresh_token?: string }, authorizationUrl?: string },
  }
}

/** A server of Settings, signed in: its connection, its sign-in and what its browser keeps. */
async function signedInServer(sessions = true) {
  const target = await startMcpOAuthTestServer({ sessions })
  cleanup.push(() => target.close())
  const storage = memoryStorage()
  const signIn = createMcpServerSignIn({
    serverId: 'docs', serverUrl: target.url, storage: storage as unknown as Storage, fetch: globalThis.fetch, origin: 'http://127.0.0.1:9',
    onChange: () => {}, reconnect: () => connection.connect(), endSession: () => connection.endSession(),
  })
  const connection: McpConnection = createMcpConnection({ url: target.url, prefix: 'docs', authProvider: signIn.provider, fetch: withTokenRenewal(globalThis.fetch, signIn.provider), reconnect: { maxAttempts: 0 }, requestTimeoutMs: 5_000 })
  cleanup.push(() => connection.close())
  await connection.connect()
  expect(signIn.status()).toBe('needed')
  // what the popup does: the demo server approves at once and redirects back with code and state
  const authorization = storage.read(mcpOAuthStorageKey('docs')).authorizationUrl!
  const redirect = await fetch(authorization, { redirect: 'manual' })
  await signIn.handle(readSignInAnswer(new URL(redirect.headers.get('location')!).searchParams))
  expect(connection.state.status).toBe('connected')
  return { target, storage, signIn, connection }
}

describe('MCP sign-out', () => {
  it('ends the session on the server, forgets the tokens, revokes them, and asks for a sign-in again', async () => {
    const { target, storage, signIn, connection } = await signedInServer()
    expect(target.sessionsOpened).toHaveLength(1)
    expect(await connection.callTool('echo', { message: 'hi' })).toMatchObject({ content: [{ text: 'Echo: hi' }] })
    const tokens = storage.read(mcpOAuthStorageKey('docs')).tokens!
    expect(target.accepts(tokens.access_token)).toBe(true)

    await signIn.signOut()
    expect(target.sessionsEnded).toEqual([target.sessionsOpened[0]])
    expect(target.revoked).toEqual([{ token: tokens.refresh_token, hint: 'refresh_token' }, { token: tokens.access_token, hint: 'access_token' }])
    expect(target.accepts(tokens.access_token)).toBe(false)
    expect(storage.read(mcpOAuthStorageKey('docs')).tokens).toBeUndefined()
    expect(connection.state.status).toBe('error')
    expect(connection.state.message).toBe('This server asks you to sign in: press Sign in.')
    expect(signIn.status()).toBe('needed')
    await expect(connection.callTool('echo', { message: 'again' })).rejects.toThrow(/not connected/)
    // no new session was opened with the old token
    expect(target.sessionsOpened).toHaveLength(1)
  })

  it('a server that offers no revocation endpoint: the tokens are forgotten and left to expire', async () => {
    const { target, storage, signIn } = await signedInServer(false)
    const before = storage.read(mcpOAuthStorageKey('docs'))
    await signIn.signOut()
    expect(target.revoked).toEqual([])
    expect(storage.read(mcpOAuthStorageKey('docs')).tokens).toBeUndefined()
    expect(await revokeMcpTokens(before as never)).toBe('not-offered')
  })

  it('a revocation endpoint that fails is reported, not thrown', async () => {
    const failing = async () => new Response('{"error":"server_error"}', { status: 500 })
    const record = {
      clientInformation: { client_id: 'app' },
      tokens: { access_token: 'a', token_type: 'bearer' },
      discovery: { authorizationServerUrl: 'https://auth.example', authorizationServerMetadata: { issuer: 'https://auth.example', authorization_endpoint: 'https://auth.example/a', token_endpoint: 'https://auth.example/t', response_types_supported: ['code'], revocation_endpoint: 'https://auth.example/revoke' } },
    }
    expect(await revokeMcpTokens(record, { fetch: failing })).toBe('failed')
    expect(await revokeMcpTokens({ ...record, discovery: { ...record.discovery, authorizationServerMetadata: { ...record.discovery.authorizationServerMetadata, revocation_endpoint: 'javascript:alert(1)' } } }, { fetch: failing })).toBe('not-offered')
  })
})
