// "Test server" for servers that need credentials, against real servers: one that takes a bearer token (pasted, or
// sent as the server's own header), and one behind OAuth, probed before the sign-in (it needs one, and names its
// authorization server) and after it with the sign-in's access token, which also ends the probe's session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeMcpServer } from '~/utils/chat/mcp/server-probe/probe-mcp-server'
import { testMcpServer } from '~/utils/chat/mcp/server-probe/test-mcp-server'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { createMcpOAuthProvider } from '#shared/mcp/oauth/mcp-oauth-provider'
import { createMemoryOAuthStore } from '#shared/mcp/oauth/mcp-oauth-store'
import { finishMcpSignIn, readSignInAnswer } from '#shared/mcp/oauth/mcp-sign-in'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import type { McpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'

let guarded: McpTestServer
let oauth: McpOAuthTestServer
beforeAll(async () => {
  [guarded, oauth] = await Promise.all([startMcpTestServer({ token: 'right' }), startMcpOAuthTestServer({ sessions: true })])
})
afterAll(async () => {
  await Promise.all([guarded.close(), oauth.close()])
})

/** Signs in to the OAuth server as the popup would; its access token. */
async function signIn(): Promise<string> {
  const store = createMemoryOAuthStore()
  const opened: URL[] = []
  const provider = createMcpOAuthProvider({ serverUrl: oauth.url, store, redirectUrl: 'http://127.0.0.1:9/mcp/oauth/callback', onAuthorizationUrl: url => void opened.push(url) })
  const connection = createMcpConnection({ url: oauth.url, prefix: 'notes', authProvider: provider, reconnect: { maxAttempts: 0 }, requestTimeoutMs: 5_000 })
  await connection.connect()
  const redirect = await fetch(opened[0]!, { redirect: 'manual' })
  await finishMcpSignIn(provider, readSignInAnswer(new URL(redirect.headers.get('location')!).searchParams), { serverUrl: oauth.url })
  await connection.close()
  return (await store.read()).tokens!.access_token
}

describe('Test server with credentials', () => {
  it('a token server: OK with its token, whether pasted or sent as its own header; refused without', async () => {
    expect(await testMcpServer({ url: guarded.url, token: 'right' })).toMatchObject({ ok: true })
    expect(await testMcpServer({ url: guarded.url, headers: { authorization: 'Bearer right' } })).toMatchObject({ ok: true })
    expect(await testMcpServer({ url: guarded.url, headers: { authorization: 'Bearer wrong' } })).toMatchObject({ ok: false, problem: 'auth', summary: 'This server refused the token (HTTP 401): it asks you to sign in.' })
    // the header sent is the token's, and the probe's session is ended with it
    const before = guarded.requests.length
    await probeMcpServer({ url: guarded.url, headers: { 'x-team': 'docs' }, token: 'right' })
    await expect.poll(() => guarded.requests.slice(before).some(request => request.method === 'DELETE')).toBe(true)
    expect(guarded.requests.slice(before).every(request => request.headers.authorization === 'Bearer right' && request.headers['x-team'] === 'docs')).toBe(true)
  })

  it('an OAuth server: needs a sign-in (naming its authorization server) before, OK with the sign-in\'s token after', async () => {
    const before = await testMcpServer({ url: oauth.url })
    expect(before).toMatchObject({ ok: false, problem: 'auth', authorization: { authorizationServers: [`${oauth.origin}/`] } })
    expect(before.summary).toBe(`This server asks you to sign in (at 127.0.0.1:${oauth.port}).`)
    const token = await signIn()
    const opened = oauth.sessionsOpened.length
    expect(await testMcpServer({ url: oauth.url, token })).toMatchObject({ ok: true, tools: 1, serverName: 'oauth-notes' })
    expect(oauth.sessionsOpened.length).toBe(opened + 1)
    await expect.poll(() => oauth.sessionsEnded.includes(oauth.sessionsOpened.at(-1)!)).toBe(true)
  })
})
