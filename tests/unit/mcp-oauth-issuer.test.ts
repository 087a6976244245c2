// The mix-up defence of the MCP sign-in against a real authorization server and MCP server (the SDK's demo provider,
// tests/fixtures/mcp-server/mcp-oauth-test-server.ts): metadata that names another issuer is refused before anything
// is registered or opened, and a callback whose `iss` is forged, or missing where the server promises one, never
// gets its code traded.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { createMcpOAuthProvider } from '#shared/mcp/oauth/mcp-oauth-provider'
import { checkAnswerIssuer, checkDiscoveredIssuer } from '#shared/mcp/oauth/mcp-oauth-issuer'
import { createMemoryOAuthStore } from '#shared/mcp/oauth/mcp-oauth-store'
import { finishMcpSignIn, McpSignInError, readSignInAnswer } from '#shared/mcp/oauth/mcp-sign-in'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import type { McpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'

const REDIRECT = 'http://127.0.0.1:9/mcp/oauth/callback'
const ATTACKER = 'https://attacker.example/'
const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function server(metadata?: Record<string, unknown>): Promise<McpOAuthTestServer> {
  const started = await startMcpOAuthTestServer({ metadata })
  cleanup.push(() => started.close())
  return started
}

/** Connects until the server asks for a sign-in; resolves with the provider, its store and the page it opened. */
async function startSignIn(target: McpOAuthTestServer) {
  const store = createMemoryOAuthStore()
  const opened: URL[] = []
  const provider = createMcpOAuthProvider({ serverUrl: target.url, store, redirectUrl: REDIRECT, onAuthorizationUrl: url => void opened.push(url) })
  const connection = createMcpConnection({ url: target.url, prefix: 'notes', authProvider: provider, reconnect: { maxAttempts: 0 }, requestTimeoutMs: 5_000 })
  cleanup.push(() => connection.close())
  await connection.connect()
  return { provider, store, opened, connection }
}

/** The demo server approves at once and redirects back with code and state (and no `iss` of its own). */
async function approve(url: URL) {
  const response = await fetch(url, { redirect: 'manual' })
  return readSignInAnswer(new URL(response.headers.get('location')!).searchParams)
}

describe('MCP sign-in: the authorization server is the one discovered (RFC 8414 §3.3)', () => {
  it('metadata that names another issuer is refused with a sentence: nothing is registered, no page is opened', async () => {
    const target = await server({ issuer: ATTACKER })
    const { store, opened, connection } = await startSignIn(target)
    expect(connection.state.status).toBe('error')
    expect(connection.state.message).toContain(`name another server (${ATTACKER}`)
    expect(connection.state.message).toContain('signing in is refused')
    // refused for good, not retried: asking again would get the same answer
    expect(connection.state.message).not.toContain('Gave up')
    expect(opened).toEqual([])
    expect(await store.read()).toEqual({})
    expect(target.grants).toEqual([])
  })

  it('a kept discovery that names another issuer is not reused: discovery runs again and refuses it', async () => {
    const target = await server({ issuer: ATTACKER })
    const store = createMemoryOAuthStore()
    store.write({ discovery: { authorizationServerUrl: target.origin, resourceMetadata: { resource: target.url, authorization_servers: [target.origin] }, authorizationServerMetadata: { issuer: ATTACKER, authorization_endpoint: `${ATTACKER}authorize`, token_endpoint: `${ATTACKER}token`, response_types_supported: ['code'] } } })
    const provider = createMcpOAuthProvider({ serverUrl: target.url, store, redirectUrl: REDIRECT })
    expect(await provider.discoveryState!()).toBeUndefined()
  })

  it('the same issuer spelt with or without its trailing slash is the same server', () => {
    const metadata = { issuer: 'https://auth.example', authorization_endpoint: 'https://auth.example/authorize', token_endpoint: 'https://auth.example/token', response_types_supported: ['code'] }
    const named = (authorizationServerUrl: string) => ({ authorizationServerUrl, resourceMetadata: { resource: 'https://mcp.example/mcp', authorization_servers: [authorizationServerUrl] }, authorizationServerMetadata: metadata })
    expect(() => checkDiscoveredIssuer(named('https://auth.example/'))).not.toThrow()
    expect(() => checkDiscoveredIssuer(named('https://auth.example.evil/'))).toThrow(McpSignInError)
  })

  it('a 2025-03-26 server without resource metadata names no issuer: its own metadata is read as it is', () => {
    const metadata = { issuer: 'https://mcp.example/oauth', authorization_endpoint: 'https://mcp.example/authorize', token_endpoint: 'https://mcp.example/token', response_types_supported: ['code'] }
    expect(() => checkDiscoveredIssuer({ authorizationServerUrl: 'https://mcp.example/', authorizationServerMetadata: metadata })).not.toThrow()
  })
})

describe('MCP sign-in: the answer comes from the server asked (RFC 9207 iss)', () => {
  it('an answer with a forged iss is refused and its code is never traded', async () => {
    const target = await server()
    const { provider, store, opened } = await startSignIn(target)
    const answer = await approve(opened[0]!)
    await expect(finishMcpSignIn(provider, { ...answer, iss: ATTACKER }, { serverUrl: target.url })).rejects.toThrow(`The sign-in answer came from another server (${ATTACKER})`)
    expect(target.grants).not.toContain('authorization_code')
    expect((await store.read()).tokens).toBeUndefined()
  })

  it('a forged iss is refused even on an error answer (its words are not shown as the server\'s)', async () => {
    const target = await server()
    const { provider, opened } = await startSignIn(target)
    const { state } = await approve(opened[0]!)
    await expect(finishMcpSignIn(provider, { state, iss: ATTACKER, error: 'access_denied', errorDescription: 'Visit attacker.example to fix this' }, { serverUrl: target.url })).rejects.toThrow(/came from another server/)
  })

  it('where the server says it always sends iss, an answer without one is refused; with its issuer it signs in', async () => {
    const target = await server({ authorization_response_iss_parameter_supported: true })
    const { provider, store, opened, connection } = await startSignIn(target)
    const answer = await approve(opened[0]!)
    await expect(finishMcpSignIn(provider, answer, { serverUrl: target.url })).rejects.toThrow(/does not say which server sent it \(iss\)/)
    expect(target.grants).not.toContain('authorization_code')
    expect((await store.read()).tokens).toBeUndefined()

    const issuer = (await store.read()).discovery!.authorizationServerMetadata!.issuer
    await finishMcpSignIn(provider, { ...answer, iss: issuer }, { serverUrl: target.url })
    expect(target.grants).toEqual(['authorization_code'])
    await connection.connect()
    expect(connection.state.status).toBe('connected')
  })

  it('iss is compared as written: one that matches only after URL normalisation is refused', () => {
    const discovery = { authorizationServerUrl: 'https://auth.example/', authorizationServerMetadata: { issuer: 'https://auth.example/', authorization_endpoint: 'https://auth.example/authorize', token_endpoint: 'https://auth.example/token', response_types_supported: ['code'] } }
    expect(() => checkAnswerIssuer({ iss: 'https://AUTH.example:443/' }, discovery)).toThrow(McpSignInError)
    expect(() => checkAnswerIssuer({ iss: 'https://auth.example' }, discovery)).toThrow(McpSignInError)
    expect(() => checkAnswerIssuer({ iss: 'https://auth.example/' }, discovery)).not.toThrow()
    // a server that does not promise iss may leave it out
    expect(() => checkAnswerIssuer({}, discovery)).not.toThrow()
  })

  it('the callback reads iss from the URL and from the message the callback page posts', async () => {
    expect(readSignInAnswer(new URLSearchParams('code=c&state=s&iss=https%3A%2F%2Fauth.example')).iss).toBe('https://auth.example')
    const { readSignInMessage } = await import('#shared/mcp/oauth/mcp-sign-in-answer')
    expect(readSignInMessage({ code: 'c', state: 's', iss: 'https://auth.example' })?.iss).toBe('https://auth.example')
    expect(readSignInMessage({ code: 'c', state: 's', iss: 5 })?.iss).toBeUndefined()
  })
})
