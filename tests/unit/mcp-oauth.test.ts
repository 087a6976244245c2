// The app's MCP OAuth client against a real authorization server and MCP server (the SDK's demo provider with
// rotating refresh tokens, tests/fixtures/mcp-server/mcp-oauth-test-server.ts): sign-in with PKCE and the state
// check, tokens used by the connection, a refresh after expiry that runs once for two "tabs", and a failed
// refresh that asks for a sign-in once instead of retrying.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { createMcpOAuthProvider } from '#shared/mcp/oauth/mcp-oauth-provider'
import type { McpOAuthProviderOptions } from '#shared/mcp/oauth/mcp-oauth-provider'
import { createLocalLock } from '#shared/mcp/oauth/local-lock'
import { withTokenRenewal } from '#shared/mcp/oauth/mcp-oauth-fetch'
import { createMemoryOAuthStore, readOAuthRecord } from '#shared/mcp/oauth/mcp-oauth-store'
import type { McpOAuthStore } from '#shared/mcp/oauth/mcp-oauth-store'
import { finishMcpSignIn, McpSignInError, readSignInAnswer } from '#shared/mcp/oauth/mcp-sign-in'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import type { McpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'

const REDIRECT = 'http://127.0.0.1:9/mcp/oauth/callback'
const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function server(options: Parameters<typeof startMcpOAuthTestServer>[0] = {}): Promise<McpOAuthTestServer> {
  const started = await startMcpOAuthTestServer(options)
  cleanup.push(() => started.close())
  return started
}

function provider(target: McpOAuthTestServer, store: McpOAuthStore, options: Partial<McpOAuthProviderOptions> = {}) {
  const opened: URL[] = []
  const made = createMcpOAuthProvider({ serverUrl: target.url, store, redirectUrl: REDIRECT, onAuthorizationUrl: url => void opened.push(url), ...options })
  return { provider: made, opened }
}

/** What the popup does in a browser: the demo server approves at once and redirects back with code and state. */
async function approve(url: URL) {
  const response = await fetch(url, { redirect: 'manual' })
  return readSignInAnswer(new URL(response.headers.get('location')!).searchParams)
}

async function connect(target: McpOAuthTestServer, authProvider: ReturnType<typeof provider>['provider']) {
  const connection = createMcpConnection({ url: target.url, prefix: 'notes', authProvider, fetch: withTokenRenewal(globalThis.fetch, authProvider), reconnect: { maxAttempts: 0 }, requestTimeoutMs: 5_000 })
  cleanup.push(() => connection.close())
  await connection.connect()
  return connection
}

async function signedIn(target: McpOAuthTestServer, store = createMemoryOAuthStore(), options: Partial<McpOAuthProviderOptions> = {}) {
  const made = provider(target, store, options)
  const connection = await connect(target, made.provider)
  expect(connection.state.status).toBe('error')
  expect(connection.state.message).toBe('This server asks you to sign in: press Sign in.')
  await finishMcpSignIn(made.provider, await approve(made.opened[0]!), { serverUrl: target.url })
  await connection.connect()
  expect(connection.state.status).toBe('connected')
  return { ...made, connection, store }
}

describe('MCP OAuth sign-in', () => {
  it('a server that answers 401 asks for a sign-in once; after it, tools are listed and a call runs with the token', async () => {
    const target = await server()
    const { provider: made, opened, connection, store } = await signedIn(target)
    expect(opened).toHaveLength(1)
    const authorization = opened[0]!
    // PKCE, the resource indicator and the state are in the authorization request
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorization.searchParams.get('resource')).toBe(target.url)
    expect(authorization.searchParams.get('state')).toMatch(/^[0-9a-f]{48}$/)
    expect(connection.state.tools.map(tool => tool.name)).toEqual(['notes__echo'])
    expect(await connection.callTool('echo', { message: 'hi' })).toMatchObject({ content: [{ type: 'text', text: 'Echo: hi' }] })
    const record = await store.read()
    expect(record.tokens?.refresh_token).toBeTruthy()
    expect(record.tokens?.expires_at).toBeGreaterThan(Date.now())
    // the one-time parts of the sign-in are gone once it finished
    expect(record.state).toBeUndefined()
    expect(record.codeVerifier).toBeUndefined()
    expect((await made.record()).clientInformation?.client_id).toBeTruthy()
  })

  it('refuses an answer whose state is not the one it sent, without asking the token endpoint', async () => {
    const target = await server()
    const made = provider(target, createMemoryOAuthStore())
    await connect(target, made.provider)
    const answer = await approve(made.opened[0]!)
    await expect(finishMcpSignIn(made.provider, { ...answer, state: 'forged' }, { serverUrl: target.url })).rejects.toThrow(McpSignInError)
    await expect(finishMcpSignIn(made.provider, { code: answer.code }, { serverUrl: target.url })).rejects.toThrow(/does not match/)
    expect(target.grants).toEqual([])
    expect((await made.provider.record()).tokens).toBeUndefined()
  })

  it('says so when the server denied access', async () => {
    const target = await server()
    const made = provider(target, createMemoryOAuthStore())
    await connect(target, made.provider)
    const { state } = await approve(made.opened[0]!)
    await expect(finishMcpSignIn(made.provider, { state, error: 'access_denied', errorDescription: 'The user said no' }, { serverUrl: target.url })).rejects.toThrow('The server did not grant access: The user said no')
  })

  it('refreshes an expired token once when two tabs ask at the same time, and both use the new token', async () => {
    const target = await server({ accessTokenSeconds: 1 })
    const store = createMemoryOAuthStore()
    // two tabs: two providers over the same stored record and the same lock (a Web Lock in the browser)
    const lock = createLocalLock()
    let clock = Date.now()
    const now = () => clock
    const first = await signedIn(target, store, { withLock: lock, now, refreshMarginMs: 0 })
    const second = provider(target, store, { withLock: lock, now, refreshMarginMs: 0 })
    const before = (await store.read()).tokens!.access_token
    // on a slow machine the server's one-second token may have run out, and been refreshed, during the sign-in itself
    const grantsBefore = target.grants.filter(grant => grant === 'refresh_token').length
    const refreshesBefore = target.refreshes()
    clock += 5_000
    target.expireAccessTokens()
    const [a, b, c] = await Promise.all([first.provider.tokens(), second.provider.tokens(), first.provider.tokens()])
    // one refresh request in all: a second would spend the rotated refresh token and be refused
    expect(target.grants.filter(grant => grant === 'refresh_token')).toHaveLength(grantsBefore + 1)
    expect(target.refreshes()).toBe(refreshesBefore + 1)
    expect(a?.access_token).not.toBe(before)
    expect(new Set([a?.access_token, b?.access_token, c?.access_token]).size).toBe(1)
    expect(await first.connection.callTool('echo', { message: 'after refresh' })).toMatchObject({ content: [{ text: 'Echo: after refresh' }] })
    expect(first.opened).toHaveLength(1)
  })

  it('a token the server refuses (401) before its expiry is refreshed once for calls at the same time, and the calls run', async () => {
    const target = await server()
    const { provider: made, connection, opened } = await signedIn(target)
    target.expireAccessTokens()
    const results = await Promise.all([connection.callTool('echo', { message: 'one' }), connection.callTool('echo', { message: 'two' })])
    expect(results.map(result => (result as { content: Array<{ text: string }> }).content[0]!.text)).toEqual(['Echo: one', 'Echo: two'])
    expect(target.grants.filter(grant => grant === 'refresh_token')).toHaveLength(1)
    expect(opened).toHaveLength(1)
    // the SDK never sees the refresh token, so its own unguarded refresh on a 401 cannot race this one
    expect((await made.tokens())?.refresh_token).toBeUndefined()
  })

  it('a refresh the server refuses forgets the tokens and asks for a sign-in once, with no second attempt', async () => {
    const target = await server({ accessTokenSeconds: 1 })
    let clock = Date.now()
    const { provider: made, opened, store } = await signedIn(target, createMemoryOAuthStore(), { now: () => clock, refreshMarginMs: 0 })
    // on a slow machine the server's one-second token may have run out, and been refreshed, during the sign-in itself
    const refreshesBefore = target.grants.filter(grant => grant === 'refresh_token').length
    // the refresh token was spent elsewhere (revoked): the server refuses it
    await store.write({ ...(await store.read()), tokens: { ...(await store.read()).tokens!, refresh_token: 'revoked' } })
    clock += 5_000
    expect(await made.tokens()).toBeUndefined()
    expect(await made.tokens()).toBeUndefined()
    expect(target.grants.filter(grant => grant === 'refresh_token')).toHaveLength(refreshesBefore + 1)
    expect(opened).toHaveLength(2)
    expect((await store.read()).authorizationUrl).toBe(opened[1]!.href)
  })

  it('"Sign out" forgets tokens, registration and any sign-in under way', async () => {
    const target = await server()
    const { provider: made, store } = await signedIn(target)
    await made.signOut()
    expect(await store.read()).toEqual({})
  })
})

describe('a stored OAuth record', () => {
  it('keeps only well-formed fields', () => {
    expect(readOAuthRecord({ tokens: { access_token: 'a', token_type: 'bearer' }, state: 's', codeVerifier: 3, clientInformation: { client_id: 7 }, discovery: 'x' }))
      .toEqual({ tokens: { access_token: 'a', token_type: 'bearer' }, state: 's' })
    expect(readOAuthRecord('nonsense')).toEqual({})
    expect(readOAuthRecord(null)).toEqual({})
  })
})
