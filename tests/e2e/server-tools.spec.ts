import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FAKE_URL, lastAssistant, openApp, openAppWith, openRouterProvider, savedSettings, sendMessage, waitForIdle } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'

// The built app with a server key pointed at the fake OpenRouter, whose fake/fetch-page model calls fetch_web_page
// with the URL of the user's message. The page it reads is served here on loopback, which the server refuses unless
// NUXT_FETCH_ALLOWED_HOSTS names it, as it does for this instance.
const ARTICLE = `<!doctype html><html><head><title>Sea otters</title><script>document.title = 'script ran'</script></head>
<body><nav>Home · About</nav><main><h1>Sea otters</h1><p>Sea otters hold hands while they sleep.</p></main></body></html>`

let app: AppInstance
let pages: Server
let pageUrl = ''

test.beforeAll(async () => {
  pages = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(ARTICLE)
  })
  await new Promise<void>(done => pages.listen(0, '127.0.0.1', done))
  const host = `127.0.0.1:${(pages.address() as AddressInfo).port}`
  pageUrl = `http://${host}/otters`
  app = await startApp({
    NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
    NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`,
    NUXT_PUBLIC_DEFAULT_MODEL: 'fake/fetch-page',
    NUXT_FETCH_ALLOWED_HOSTS: host,
  })
})

test.afterAll(async () => {
  await app?.stop()
  pages?.closeAllConnections()
  await new Promise(done => pages?.close(done))
})

async function openToolPopover(page: Page) {
  await page.getByTestId('tool-popover-trigger').click()
  await expect(page.getByTestId('tool-switch-fetch_web_page')).toBeVisible()
}

test.describe('server tools', () => {
  test('the popover lists fetch_web_page beside the browser\'s tools, off until switched on, and the choice is kept', async ({ page }) => {
    await openApp(page, app.url)
    await openToolPopover(page)
    await expect(page.getByTestId('tool-switch-calculate')).toBeVisible()
    const toolSwitch = page.getByTestId('tool-switch-fetch_web_page')
    await expect(toolSwitch).toHaveAttribute('aria-checked', 'false')
    await expect(page.getByTestId('tool-popover-content')).toContainText('Fetch web page')
    const stored = await savedSettings(page, 'tool')
    await toolSwitch.click()
    await expect(toolSwitch).toHaveAttribute('aria-checked', 'true')
    await page.keyboard.press('Escape')
    // the choice is written debounced: reload once it is saved
    await expect.poll(() => savedSettings(page, 'tool')).not.toEqual(stored)

    await page.reload()
    await openApp(page, app.url)
    await openToolPopover(page)
    await expect(page.getByTestId('tool-switch-fetch_web_page')).toHaveAttribute('aria-checked', 'true')
  })

  test('a chat in the tab runs fetch_web_page on the server: the card shows the page\'s text and the answer arrives', async ({ page }) => {
    const executions: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/tools/')) executions.push(`${request.method()} ${new URL(request.url()).pathname}`)
    })
    await openAppWith(page, {
      provider: openRouterProvider('fake/fetch-page'),
      // This test is about the tab's own loop; chats run on the server are background-chat.spec.ts'.
      runOnServer: false,
      // fetch_web_page asks first by default; asking is approval.spec.ts' subject
      toolPolicies: { fetch_web_page: 'auto' },
    }, app.url)
    await openToolPopover(page)
    await page.getByTestId('tool-switch-fetch_web_page').click()
    await page.keyboard.press('Escape')

    await sendMessage(page, `Read ${pageUrl} for me`)
    const card = page.locator('[data-testid="tool-card"][data-tool="fetch_web_page"]').first()
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await card.getByRole('button', { name: /details/i }).click()
    await expect(card).toContainText('Sea otters hold hands while they sleep.')
    await expect(card).not.toContainText('script ran')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('I read the page. It says: Sea otters Sea otters hold hands while they sleep.')
    expect(executions).toEqual(['POST /api/tools/fetch_web_page/execute'])
  })

  test('the tool routes answer only the app\'s own page, and refuse inside addresses', async () => {
    expect((await fetch(`${app.url}/api/tools`)).status).toBe(401)
    const listed = await app.fetchWithSession('/api/tools')
    expect(listed.status).toBe(200)
    const { tools } = await listed.json() as { tools: Array<{ name: string, runtime: string, actsOutsideApp: boolean }> }
    expect(tools.map(tool => [tool.name, tool.runtime])).toEqual([['calculate', 'hybrid'], ['get_current_time', 'hybrid'], ['fetch_web_page', 'server']])
    expect(tools.find(tool => tool.name === 'fetch_web_page')!.actsOutsideApp).toBe(true)

    const execute = (body: unknown, headers: Record<string, string> = {}) => app.fetchWithSession('/api/tools/fetch_web_page/execute', {
      method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
    })
    const metadata = await (await execute({ arguments: JSON.stringify({ url: 'http://169.254.169.254/latest/meta-data/' }) })).json()
    expect(metadata).toEqual({ result: null, toolName: 'fetch_web_page', timedOut: false, error: expect.stringMatching(/Refused to fetch .*169\.254\.169\.254 is a link-local address/) })
    expect((await execute({ arguments: '{}' }, { origin: 'https://evil.example' })).status).toBe(403)
    expect((await app.fetchWithSession('/api/tools/calculate/execute', { method: 'POST', body: '{"arguments":"{\\"expression\\":\\"6*7\\"}"}' })).status).toBe(200)
  })
})
