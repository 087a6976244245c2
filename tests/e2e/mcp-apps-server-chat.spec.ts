import { expect, test } from '@playwright/test'
import { FAKE_URL, openApp, openAppWith, openRouterProvider, sendMessage } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { addMcpServer, waitForReplyAllowingCalls } from './support/mcp-settings'

// An MCP App in a chat that runs on the server: the fake OpenRouter (fake/call-named) calls the app's tool, the
// job hands the call to this browser (the MCP server is the browser's), and the card shows the app as soon as the
// result arrives, and again after a reload, from the tool row.
let app: AppInstance
let server: McpTestServer

test.beforeAll(async () => {
  server = await startMcpTestServer({ cors: false, apps: true })
  app = await startApp({
    NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${server.port}`,
    NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
    NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`,
    NUXT_PUBLIC_DEFAULT_MODEL: 'fake/call-named',
  })
})

test.afterAll(async () => {
  await app?.stop()
  await server?.close()
})

test('a server-run chat shows the app of an MCP tool it called, and again after a reload', async ({ page }) => {
  test.setTimeout(90_000)
  await openAppWith(page, { provider: openRouterProvider('fake/call-named'), runOnServer: true }, app.url)
  await addMcpServer(page, 'Apps', server.url)
  await page.getByTestId('settings-cancel').click()
  const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
  await sendMessage(page, 'call apps__show_counter {"label": "on the server"}')
  expect((await started).status()).toBe(201)
  await waitForReplyAllowingCalls(page)

  const card = page.locator('[data-testid="tool-card"][data-tool="apps__show_counter"]')
  const counter = card.frameLocator('[data-testid="mcp-app-frame"]').frameLocator('iframe')
  await expect(counter.locator('#count')).toHaveText('7', { timeout: 15_000 })
  await expect(counter.locator('#input')).toHaveText('{"label":"on the server"}')

  await page.reload()
  await openApp(page, page.url())
  await expect(counter.locator('#count')).toHaveText('7', { timeout: 15_000 })
  await expect(counter.locator('#input')).toHaveText('{"label":"on the server"}')
})
