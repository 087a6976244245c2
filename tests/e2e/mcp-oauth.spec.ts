import { expect, test } from '@playwright/test'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lastAssistant, newAppContext, openApp, sendMessage, watchCspViolations } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import type { McpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import { addMcpServer, signInThroughPopup, waitForReplyAllowingCalls } from './support/mcp-settings'

// A real MCP authorization server and resource server (the SDK's, tests/fixtures/mcp-server/mcp-oauth-test-server.ts:
// it approves at once and redirects back), reached through the app's relay, and the built app. A second server
// advertises a token endpoint on a host the relay does not allow; a bare listener stands for that host.
let app: AppInstance
let oauth: McpOAuthTestServer
let elsewhere: McpOAuthTestServer
/** Keeps MCP sessions and revokes tokens: sign-out is seen there. */
let keeper: McpOAuthTestServer
let outsideHits = 0
let outside: ReturnType<typeof createServer>

test.beforeAll(async () => {
  outside = createServer((_request, response) => {
    outsideHits++
    response.end('{}')
  })
  await new Promise<void>(resolve => outside.listen(0, '127.0.0.1', resolve))
  const outsidePort = (outside.address() as AddressInfo).port
  oauth = await startMcpOAuthTestServer()
  elsewhere = await startMcpOAuthTestServer({ advertisedTokenEndpoint: `http://127.0.0.1:${outsidePort}/token` })
  keeper = await startMcpOAuthTestServer({ sessions: true })
  app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${oauth.port},127.0.0.1:${elsewhere.port},127.0.0.1:${keeper.port}` })
})

test.afterAll(async () => {
  await app?.stop()
  await Promise.all([oauth?.close(), elsewhere?.close(), keeper?.close(), new Promise(resolve => outside?.close(resolve))])
})

test.describe('MCP servers that ask for OAuth', () => {
  test('add → Sign in in a popup → tools listed → a call runs → a refresh after expiry → Sign out', async ({ page }, testInfo) => {
    // a whole sign-in, a chat turn and a refresh: 15–25 s on a loaded 2-core machine, past the default 30 s with two workers
    test.setTimeout(90_000)
    const violations = await watchCspViolations(page)
    // the token goes to the MCP server (through the relay for that server), never to any other route of the app
    const leaked: string[] = []
    page.on('request', (request) => {
      const authorization = request.headers().authorization
      if (authorization && !request.url().includes('/api/mcp/proxy')) leaked.push(request.url())
    })
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Vault', oauth.url, { connected: false })
    await expect(server).toHaveAttribute('data-status', 'error', { timeout: 15_000 })
    await expect(server.getByTestId('mcp-server-message')).toHaveText('This server asks you to sign in: press Sign in.')
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath('mcp-sign-in-desktop.png') })

    await signInThroughPopup(page, server.getByTestId('mcp-server-sign-in'))
    await expect(server).toHaveAttribute('data-status', 'connected', { timeout: 15_000 })
    await expect(server.getByTestId('mcp-server-signed-in')).toBeVisible()
    await expect(server.getByTestId('mcp-server-tools')).toContainText('echo')
    await expect(server.getByTestId('mcp-server-route')).toHaveText('through this app\'s server')
    await page.screenshot({ path: testInfo.outputPath('mcp-signed-in-desktop.png') })
    expect(oauth.grants).toEqual(['authorization_code'])
    const stored = await page.evaluate(() => Object.keys(localStorage).filter(key => key.startsWith('plugboard:mcp-oauth:v1:')))
    expect(stored).toHaveLength(1)

    await page.getByTestId('settings-cancel').click()
    await sendMessage(page, 'call vault__echo with {"message": "signed in"}')
    await waitForReplyAllowingCalls(page)
    await expect(lastAssistant(page)).toContainText('Echo: signed in')

    // the access token ends early: the next call refreshes once and runs
    oauth.expireAccessTokens()
    await sendMessage(page, 'call vault__echo with {"message": "after refresh"}')
    await waitForReplyAllowingCalls(page)
    await expect(lastAssistant(page)).toContainText('Echo: after refresh')
    expect(oauth.grants).toEqual(['authorization_code', 'refresh_token'])

    await page.getByTestId('settings-open').click()
    await server.getByTestId('mcp-server-sign-out').click()
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible({ timeout: 15_000 })
    // the tokens are gone from this browser (what is left is the new sign-in the server asked for)
    const kept = await page.evaluate(() => Object.keys(localStorage).filter(key => key.startsWith('plugboard:mcp-oauth:v1:')).map(key => localStorage.getItem(key)).join(''))
    expect(kept).not.toContain('access_token')
    expect(kept).not.toContain('"tokens"')
    expect(leaked).toEqual([])
    expect(violations).toEqual([])
  })

  test('Test server says a server needs sign-in and offers Sign in; signing out ends the session on the server and revokes the tokens', async ({ page }) => {
    // a whole flow: add, test, sign in through the popup, sign out, test again
    test.slow()
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Keeper', keeper.url, { connected: false })
    await expect(server).toHaveAttribute('data-status', 'error', { timeout: 15_000 })
    await server.getByTestId('mcp-test-run').click()
    const result = server.getByTestId('mcp-test-result')
    await expect(result).toHaveAttribute('data-problem', 'auth', { timeout: 15_000 })
    await expect(result.getByTestId('mcp-test-summary')).toHaveText(`This server asks you to sign in (at 127.0.0.1:${keeper.port}).`)
    await expect(result.getByTestId('mcp-test-sign-in-needed')).toContainText('Needs sign-in')
    await signInThroughPopup(page, result.getByTestId('mcp-test-sign-in'))
    await expect(server).toHaveAttribute('data-status', 'connected', { timeout: 15_000 })
    await expect(server.getByTestId('mcp-server-tools')).toContainText('echo')
    const session = keeper.sessionsOpened.at(-1)!
    expect(keeper.sessionsEnded).not.toContain(session)

    await server.getByTestId('mcp-server-sign-out').click()
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible({ timeout: 15_000 })
    // the server saw the session end, and both tokens handed back
    expect(keeper.sessionsEnded).toContain(session)
    await expect.poll(() => keeper.revoked.map(item => item.hint)).toEqual(['refresh_token', 'access_token'])
    expect(keeper.accepts(keeper.revoked[1]!.token)).toBe(false)
    // a saved server that needs sign-in, tested again: the same offer
    await server.getByTestId('mcp-test-run').click()
    await expect(server.getByTestId('mcp-test-sign-in')).toBeVisible({ timeout: 15_000 })
  })

  test('the Sign in and signed-in states on a phone', async ({ browser }, testInfo) => {
    const context = await newAppContext(browser, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
    const page = await context.newPage()
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Phone', oauth.url, { connected: false })
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible({ timeout: 15_000 })
    await server.scrollIntoViewIfNeeded()
    await page.screenshot({ path: testInfo.outputPath('mcp-sign-in-phone.png') })
    await signInThroughPopup(page, server.getByTestId('mcp-server-sign-in'))
    await expect(server.getByTestId('mcp-server-signed-in')).toBeVisible({ timeout: 15_000 })
    await page.screenshot({ path: testInfo.outputPath('mcp-signed-in-phone.png') })
    await context.close()
  })

  test('an answer with the wrong state, or a message from another origin, signs nothing in', async ({ page, context }) => {
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Guarded', oauth.url, { connected: false })
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible({ timeout: 15_000 })
    const grantsBefore = oauth.grants.length
    // a forged callback in this origin: a code with a state this page never sent
    const forged = await context.newPage()
    await forged.goto(`${app.url}/mcp/oauth/callback?code=stolen&state=forged`)
    await expect(forged.getByTestId('mcp-oauth-callback')).toHaveText('Done. You can close this window.')
    // another origin posts a look-alike answer to the app's window
    await page.evaluate(() => window.postMessage({ code: 'stolen', state: 'forged' }, '*'))
    const attacker = await context.newPage()
    await attacker.goto(`${oauth.origin}/.well-known/oauth-authorization-server`)
    await attacker.evaluate(() => new BroadcastChannel('plugboard:mcp-oauth').postMessage({ code: 'stolen', state: 'forged' }))
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible()
    await expect(server.getByTestId('mcp-server-signed-in')).toHaveCount(0)
    expect(oauth.grants.length).toBe(grantsBefore)
  })

  test('a token endpoint on a host the relay does not allow is never reached, and the sign-in says why', async ({ page }) => {
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Elsewhere', elsewhere.url, { connected: false })
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible({ timeout: 15_000 })
    await signInThroughPopup(page, server.getByTestId('mcp-server-sign-in')).catch(() => {})
    await expect(server.getByTestId('mcp-server-sign-in-error')).toContainText('its operator can add the host to NUXT_MCP_ALLOWED_HOSTS', { timeout: 15_000 })
    await expect(server.getByTestId('mcp-server-signed-in')).toHaveCount(0)
    expect(outsideHits).toBe(0)
  })

  test('the app serves its OAuth client metadata document, naming its callback', async () => {
    const response = await fetch(`${app.url}/oauth/client-metadata.json`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      client_id: `${app.url}/oauth/client-metadata.json`,
      redirect_uris: [`${app.url}/mcp/oauth/callback`],
      token_endpoint_auth_method: 'none',
    })
  })
})
