import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { openApp } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import type { McpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'

// A real MCP authorization server and resource server (the SDK's, tests/fixtures/mcp-server/mcp-oauth-test-server.ts:
// it approves at once and redirects back), reached through the app's relay, and the built app.
let app: AppInstance
let oauth: McpOAuthTestServer

test.beforeAll(async () => {
  oauth = await startMcpOAuthTestServer()
  app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${oauth.port}` })
})

test.afterAll(async () => {
  await app?.stop()
  await oauth?.close()
})

async function addServer(page: Page, name: string, url: string) {
  if (!(await page.getByTestId('mcp-servers').isVisible())) await page.getByTestId('settings-open').click()
  await page.getByTestId('mcp-name').fill(name)
  await page.getByTestId('mcp-url').fill(url)
  await page.getByTestId('mcp-add').click()
  return page.locator(`[data-testid="mcp-server"][data-name="${name}"]`)
}

test.describe('MCP servers that ask for OAuth', () => {
  test('an answer with the wrong state, or a message from another origin, signs nothing in', async ({ page, context }) => {
    await openApp(page, app.url)
    const server = await addServer(page, 'Guarded', oauth.url)
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
