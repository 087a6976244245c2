import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForReady } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { addMcpServer, waitForReplyAllowingCalls } from './support/mcp-settings'
import { seriousViolations } from './support/axe'

// Real MCP servers (the SDK's, on loopback ports) and the built app with the relay allowed for one of them and an
// operator server configured. The demo model calls the tool the message names ("call notes__echo with {...}").
let app: AppInstance
let noCors: McpTestServer
let withCors: McpTestServer
let operator: McpTestServer

test.beforeAll(async () => {
  noCors = await startMcpTestServer({ cors: false })
  withCors = await startMcpTestServer({ cors: true })
  operator = await startMcpTestServer({ cors: false })
  app = await startApp({
    NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${noCors.port}`,
    NUXT_MCP_SERVERS: JSON.stringify([{ name: 'ops', url: operator.url }]),
  })
})

test.afterAll(async () => {
  await app?.stop()
  await Promise.all([noCors?.close(), withCors?.close(), operator?.close()])
})

async function closeSettings(page: Page) {
  await page.getByTestId('settings-cancel').click()
  await expect(page.getByTestId('mcp-servers')).toHaveCount(0)
}

test.describe('MCP servers', () => {
  test('a server without CORS is added in Settings, its tools join the popover, and the model\'s call reaches the answer', async ({ page }) => {
    const relayed: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/mcp/proxy')) relayed.push(request.method())
    })
    // the MCP client runs under the app's strict CSP (no eval): nothing it does may be refused or throw
    const problems: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy|unsafe-eval|EvalError/i.test(message.text())) problems.push(message.text())
    })
    page.on('pageerror', error => problems.push(error.message))
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Notes', noCors.url)
    await expect(server.getByTestId('mcp-server-route')).toHaveText('through this app\'s server')
    await expect(server.getByTestId('mcp-server-tools')).toContainText('echo')
    await expect(server.getByTestId('mcp-server-tools')).toContainText('tiny_image')
    await closeSettings(page)

    await page.getByTestId('tool-popover-trigger').click()
    const popover = page.getByTestId('tool-popover-content')
    await expect(page.getByTestId('tool-switch-notes__echo')).toBeVisible()
    await expect(popover).toContainText('Notes')
    await page.keyboard.press('Escape')

    await sendMessage(page, 'call notes__echo with {"message": "hello from MCP"}')
    await waitForReplyAllowingCalls(page)
    const card = page.locator('[data-testid="tool-card"][data-tool="notes__echo"]')
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(card.getByTestId('tool-summary')).toHaveText('Echo: hello from MCP')
    await expect(lastAssistant(page)).toContainText('Echo: hello from MCP')
    expect(relayed).toContain('POST')
    expect(problems).toEqual([])
  })

  test('an image result is shown on the card and described to the model; an isError result fails the card', async ({ page }) => {
    await openApp(page, app.url)
    await addMcpServer(page, 'Pics', noCors.url)
    await closeSettings(page)

    await sendMessage(page, 'call pics__tiny_image')
    await waitForReplyAllowingCalls(page)
    const card = page.locator('[data-testid="tool-card"][data-tool="pics__tiny_image"]')
    await expect(card).toHaveAttribute('data-status', 'done')
    const image = card.getByTestId('tool-image')
    await expect(image).toBeVisible()
    expect(await image.evaluate(element => (element as HTMLImageElement).naturalWidth)).toBe(1)
    await expect(card.getByTestId('tool-summary')).toContainText('A red dot. [Image: image/png')

    await sendMessage(page, 'call pics__fail')
    await waitForReplyAllowingCalls(page)
    const failed = page.locator('[data-testid="tool-card"][data-tool="pics__fail"]')
    await expect(failed).toHaveAttribute('data-status', 'error')
    await expect(failed.getByTestId('tool-summary')).toContainText('The tool failed on purpose.')
  })

  test('a server that allows the app\'s origin is reached directly once the page\'s CSP lists it, and is kept across a reload', async ({ page, context }) => {
    const relayed: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/mcp/proxy')) relayed.push(request.url())
    })
    const origin = new URL(withCors.url).origin
    await context.addCookies([{ name: 'plugboard-connect', value: encodeURIComponent(origin), url: app.url }])
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Direct', withCors.url)
    await expect(server.getByTestId('mcp-server-route')).toHaveText('direct')
    await closeSettings(page)

    await page.reload()
    await openApp(page, app.url)
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-switch-direct__add')).toBeVisible({ timeout: 15_000 })
    await page.keyboard.press('Escape')
    await sendMessage(page, 'call direct__add with {"a": 19, "b": 23}')
    await waitForReplyAllowingCalls(page)
    await expect(page.locator('[data-testid="tool-card"][data-tool="direct__add"]').getByTestId('tool-summary')).toHaveText('42')
    expect(relayed).toEqual([])
  })

  test('a server that restarts is reconnected and its tools work again', async ({ page, context }) => {
    let restartable = await startMcpTestServer({ cors: true })
    const port = restartable.port
    try {
      await context.addCookies([{ name: 'plugboard-connect', value: encodeURIComponent(new URL(restartable.url).origin), url: app.url }])
      await openApp(page, app.url)
      const server = await addMcpServer(page, 'Flaky', restartable.url)
      await restartable.close()
      // the page notices on its own (its notification stream broke) and keeps trying with a backoff
      await expect(server).toHaveAttribute('data-status', 'reconnecting', { timeout: 20_000 })
      await expect(server.getByTestId('mcp-server-message')).toContainText('dropped')
      restartable = await startMcpTestServer({ cors: true, port })
      await expect(server).toHaveAttribute('data-status', 'connected', { timeout: 30_000 })
      await closeSettings(page)
      await sendMessage(page, 'call flaky__echo with {"message": "back again"}')
      await waitForReplyAllowingCalls(page)
      await expect(page.locator('[data-testid="tool-card"][data-tool="flaky__echo"]').getByTestId('tool-summary')).toHaveText('Echo: back again')
    }
    finally {
      await restartable.close()
    }
  })

  test('"Allow <origin>" lets the page reach a server directly that the relay may not reach', async ({ page }) => {
    await openApp(page, app.url)
    await page.getByTestId('settings-open').click()
    await page.getByTestId('mcp-name').fill('Open')
    await page.getByTestId('mcp-url').fill(withCors.url)
    await page.getByTestId('mcp-add').click()
    const server = page.locator('[data-testid="mcp-server"][data-name="Open"]')
    await expect(server).toHaveAttribute('data-status', 'error', { timeout: 15_000 })
    await server.getByTestId('mcp-server-allow').click()
    await waitForReady(page)
    await page.getByTestId('settings-open').click()
    const reloaded = page.locator('[data-testid="mcp-server"][data-name="Open"]')
    await expect(reloaded).toHaveAttribute('data-status', 'connected', { timeout: 15_000 })
    await expect(reloaded.getByTestId('mcp-server-route')).toHaveText('direct')
  })

  test('a server the relay may not reach shows the relay\'s reason, and removing a server removes its tools', async ({ page }) => {
    await openApp(page, app.url)
    await page.getByTestId('settings-open').click()
    await page.getByTestId('mcp-name').fill('Elsewhere')
    await page.getByTestId('mcp-url').fill(operator.url)
    await page.getByTestId('mcp-add').click()
    const refused = page.locator('[data-testid="mcp-server"][data-name="Elsewhere"]')
    await expect(refused).toHaveAttribute('data-status', 'error', { timeout: 15_000 })
    // in plain words, naming the setting that fixes it; the relay's own answer behind "Details"
    await expect(refused.getByTestId('mcp-server-message')).toContainText('its operator can add the host to NUXT_MCP_ALLOWED_HOSTS')
    await expect(refused.getByTestId('mcp-server-message')).not.toContainText('{')
    await refused.getByTestId('mcp-server-details').locator('summary').click()
    await expect(refused.getByTestId('mcp-server-details')).toContainText('is not among the MCP servers this server relays')
    await expect(refused.getByTestId('mcp-server-allow')).toBeVisible()

    const kept = await addMcpServer(page, 'Gone soon', noCors.url)
    // the section, with a connected and a failed server and a form error, has no serious axe violations
    await page.getByTestId('mcp-add').click()
    await expect(page.getByTestId('mcp-add-form')).toContainText('Give the server a name')
    expect(await seriousViolations(page, { include: '[data-testid="mcp-servers"]' })).toEqual([])
    await kept.getByTestId('mcp-server-remove').click()
    await expect(kept).toHaveCount(0)
    await closeSettings(page)
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-switch-calculate')).toBeVisible()
    await expect(page.getByTestId('tool-switch-gone_soon__echo')).toHaveCount(0)
  })

  test('the relay answers only the app\'s session and only allowed hosts', async () => {
    const target = encodeURIComponent(noCors.url)
    const init = { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }
    const before = noCors.requests.length
    const noSession = await fetch(`${app.url}/api/mcp/proxy?url=${target}`, init)
    expect(noSession.status).toBe(401)
    expect(noCors.requests.length).toBe(before)
    const otherHost = await app.fetchWithSession(`/api/mcp/proxy?url=${encodeURIComponent(operator.url)}`, init)
    expect(otherHost.status).toBe(403)
    const metadata = await app.fetchWithSession(`/api/mcp/proxy?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, init)
    expect(metadata.status).toBe(403)
  })

  test('the operator\'s MCP server (NUXT_MCP_SERVERS) is listed as server tools and runs on the server', async () => {
    await expect.poll(async () => {
      const body = await (await app.fetchWithSession('/api/tools')).json() as { tools: Array<{ name: string, runtime: string, actsOutsideApp: boolean }> }
      return body.tools.find(tool => tool.name === 'ops__echo')
    }, { timeout: 15_000 }).toMatchObject({ runtime: 'server', actsOutsideApp: true })
    const response = await app.fetchWithSession('/api/tools/ops__echo/execute', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: '{"message":"operator"}' }),
    })
    expect(await response.json()).toMatchObject({ result: 'Echo: operator', toolName: 'ops__echo' })
  })
})
