import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type OwnUpstream } from './support/own-upstream'
import type { Page } from '@playwright/test'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle, waitForReady } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { seriousViolations } from './support/axe'

// The built app with a server key pointed at the fake OpenRouter, whose fake/fetch-page model calls fetch_web_page
// (a tool that acts outside the app, so it asks first) with the URL of the user's message, then answers with what
// the tool returned. The pages are served here on loopback, which NUXT_FETCH_ALLOWED_HOSTS lets the server read.
const PAGES: Record<string, string> = {
  '/otters': '<html><head><title>Sea otters</title></head><body><main><p>Sea otters hold hands while they sleep.</p></main></body></html>',
  '/whales': '<html><head><title>Whales</title></head><body><main><p>Blue whales are the largest animals ever known.</p></main></body></html>',
}

let app: AppInstance
let pages: Server
let host = ''
const fetched: string[] = []

test.beforeAll(async ({ upstream }) => {
  // an app of its own starts beside the other workers' (30 s ran out on a loaded machine)
  test.setTimeout(90_000)
  pages = createServer((request, response) => {
    fetched.push(request.url ?? '')
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(PAGES[request.url ?? ''] ?? '<p>Nothing here.</p>')
  })
  await new Promise<void>(done => pages.listen(0, '127.0.0.1', done))
  host = `127.0.0.1:${(pages.address() as AddressInfo).port}`
  app = await startApp({
    NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
    NUXT_OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
    NUXT_PUBLIC_DEFAULT_MODEL: 'fake/fetch-page',
    NUXT_FETCH_ALLOWED_HOSTS: host,
  })
})

test.afterAll(async () => {
  await app?.stop()
  pages?.closeAllConnections()
  await new Promise(done => pages?.close(done))
})

test.beforeEach(async ({ upstream }) => {
  fetched.length = 0
  await upstream.clear()
})

/** Opens the app with fetch_web_page switched on and fake/fetch-page chosen; `onServer` runs chats on the server. */
async function openWithFetchTool(page: Page, onServer = false) {
  await openAppWith(page, { provider: openRouterProvider('fake/fetch-page'), runOnServer: onServer, toolStates: { fetch_web_page: true } }, app.url)
}

const fetchCard = (page: Page) => page.locator('[data-testid="tool-card"][data-tool="fetch_web_page"]').last()

/** Sends a message that makes the model call fetch_web_page, and waits for the card to ask. */
async function askToRead(page: Page, path = '/otters') {
  await sendMessage(page, `Read http://${host}${path} for me`)
  const card = fetchCard(page)
  await expect(card).toHaveAttribute('data-status', 'awaiting-approval', { timeout: 15_000 })
  await expect(card.getByTestId('tool-approval')).toBeVisible()
  return card
}

/** The last chat request the fake OpenRouter received: the history the model read. */
async function lastModelHistory(upstream: OwnUpstream) {
  const requests = await upstream.requests()
  return requests.at(-1)!.body.messages as Array<{ role: string, content: string | null, tool_calls?: Array<{ function: { arguments: string } }> }>
}

test.describe('approval before a tool runs', () => {
  test('Allow once: the card asks with the arguments, nothing runs until allowed, then the answer arrives', async ({ page }) => {
    await openWithFetchTool(page)
    const card = await askToRead(page)
    await expect(card.getByLabel('url')).toHaveValue(`http://${host}/otters`)
    expect(fetched).toEqual([])
    await card.getByRole('button', { name: 'Allow once' }).click()
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Sea otters hold hands while they sleep.')
    expect(fetched).toEqual(['/otters'])

    // "once": the next call asks again
    await askToRead(page, '/whales')
    await page.getByTestId('stop-button').click()
    await waitForIdle(page)
    await expect(fetchCard(page)).toHaveAttribute('data-status', 'cancelled')
    expect(fetched).toEqual(['/otters'])
  })

  test('Always allow: runs, the popover now says "Run without asking", and the next call runs without asking', async ({ page }) => {
    await openWithFetchTool(page)
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-policy-fetch_web_page')).toHaveValue('ask')
    await page.keyboard.press('Escape')

    const card = await askToRead(page)
    await card.getByRole('button', { name: 'Always allow' }).click()
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Sea otters hold hands while they sleep.')

    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-policy-fetch_web_page')).toHaveValue('auto')
    await page.keyboard.press('Escape')
    await sendMessage(page, `Read http://${host}/whales for me`)
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Blue whales are the largest animals ever known.')
    await expect(page.getByTestId('tool-approval')).toHaveCount(0)
    expect(fetched).toEqual(['/otters', '/whales'])
  })

  test('Deny: nothing runs, the card says so, and the model reads that the user declined', async ({ page, upstream }) => {
    await openWithFetchTool(page)
    const card = await askToRead(page)
    await card.getByRole('button', { name: 'Deny' }).click()
    await expect(card).toHaveAttribute('data-status', 'denied')
    await expect(card.getByTestId('tool-summary')).toHaveText('Not run: you declined it.')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('I read the page.')
    expect(fetched).toEqual([])
    const history = await lastModelHistory(upstream)
    expect(history.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('the user declined this tool call') })
  })

  test('Never (set in the popover): the call is refused without asking', async ({ page, upstream }) => {
    await openWithFetchTool(page)
    await page.getByTestId('tool-popover-trigger').click()
    await page.getByTestId('tool-policy-fetch_web_page').selectOption('never')
    await page.keyboard.press('Escape')
    await sendMessage(page, `Read http://${host}/otters for me`)
    await waitForIdle(page)
    await expect(fetchCard(page)).toHaveAttribute('data-status', 'denied')
    await expect(fetchCard(page)).toContainText('Blocked by your settings')
    expect(fetched).toEqual([])
    expect((await lastModelHistory(upstream)).at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('never allow this tool') })
  })

  test('edited arguments are checked live, are what runs, and what the card and the model\'s history show', async ({ page, upstream }) => {
    await openWithFetchTool(page)
    const card = await askToRead(page)
    const url = card.getByLabel('url')
    await url.fill(`http://${host}/${'a'.repeat(2048)}`)
    await expect(card.locator('[data-slot="field-error"]')).toContainText('2048')
    await expect(url).toHaveAttribute('aria-invalid', 'true')
    await expect(card.getByRole('button', { name: 'Allow once' })).toBeDisabled()
    await url.fill(`http://${host}/whales`)
    await expect(card.locator('[data-slot="field-error"]')).toHaveCount(0)
    await card.getByRole('button', { name: 'Allow once' }).click()
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Blue whales are the largest animals ever known.')
    expect(fetched).toEqual(['/whales'])
    const history = await lastModelHistory(upstream)
    const asked = history.find(message => message.tool_calls)!
    expect(JSON.parse(asked.tool_calls![0]!.function.arguments)).toEqual({ url: `http://${host}/whales` })
    await fetchCard(page).getByRole('button', { name: /details/i }).click()
    await expect(fetchCard(page).getByTestId('tool-arguments')).toContainText('/whales')
  })

  test('a reload while the call waits keeps the card asking (not "Interrupted"); answering goes on with the chat', async ({ page }) => {
    await openWithFetchTool(page)
    await askToRead(page)
    await page.reload()
    await waitForReady(page)
    const card = fetchCard(page)
    await expect(card).toHaveAttribute('data-status', 'awaiting-approval')
    await expect(page.getByText('Interrupted')).toHaveCount(0)
    await expect(page.locator('[data-status="interrupted"]')).toHaveCount(0)
    await card.getByRole('button', { name: 'Allow once' }).click()
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Sea otters hold hands while they sleep.')
    expect(fetched).toEqual(['/otters'])
  })

  test('another tab shows the waiting card and its answer reaches the tab whose loop waits', async ({ page, context }) => {
    await openWithFetchTool(page)
    await askToRead(page)
    const other = await context.newPage()
    await openApp(other, page.url())
    const card = fetchCard(other)
    await expect(card).toHaveAttribute('data-status', 'awaiting-approval')
    await card.getByRole('button', { name: 'Always allow' }).click()
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Sea otters hold hands while they sleep.')
    expect(fetched).toEqual(['/otters'])
    // the policy the other tab set is the one this tab now uses
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-policy-fetch_web_page')).toHaveValue('auto')
  })

  test('keyboard only: Tab reaches the argument fields and the buttons; Enter allows', async ({ page }) => {
    await openWithFetchTool(page)
    const card = await askToRead(page)
    const url = card.getByLabel('url')
    // backwards from the composer, the way a keyboard user reaches the reply above it
    for (let presses = 0; presses < 80 && !(await url.evaluate(element => element === document.activeElement)); presses++) await page.keyboard.press('Shift+Tab')
    await expect(url).toBeFocused()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type(`http://${host}/whales`)
    await page.keyboard.press('Tab')
    await expect(card.getByRole('button', { name: 'Allow once' })).toBeFocused()
    await page.keyboard.press('Enter')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Blue whales are the largest animals ever known.')
  })

  test('the card waiting for approval, and the popover with its policy controls, have no serious axe violations', async ({ page }) => {
    // two axe passes (light and dark) beside other workers: 30 s ran out on a loaded machine
    test.slow()
    await openWithFetchTool(page)
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-policy-fetch_web_page')).toBeVisible()
    expect(await seriousViolations(page, { include: '[data-testid="tool-popover-content"]' })).toEqual([])
    await page.keyboard.press('Escape')

    await askToRead(page)
    expect(await seriousViolations(page, { include: '[data-testid="tool-card"]' })).toEqual([])
    await page.getByTestId('color-mode').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(await seriousViolations(page, { include: '[data-testid="tool-card"]' })).toEqual([])
  })
})

test.describe('approval with the offline demo model', () => {
  test('get_weather asks first by default; Deny keeps the city away from Open-Meteo and the demo still answers', async ({ page }) => {
    const outside: string[] = []
    await page.route(/open-meteo\.com/, (route) => {
      outside.push(route.request().url())
      return route.abort()
    })
    await openApp(page)
    await page.evaluate(() => localStorage.setItem('plugboard:tool-states:v1', JSON.stringify({ version: 1, states: { get_weather: true } })))
    await page.reload()
    await waitForReady(page)
    await sendMessage(page, 'weather in Paris')
    const card = page.locator('[data-testid="tool-card"][data-tool="get_weather"]').last()
    await expect(card).toHaveAttribute('data-status', 'awaiting-approval', { timeout: 15_000 })
    await expect(card.getByLabel('city')).toHaveValue('Paris')
    await card.getByRole('button', { name: 'Deny' }).click()
    await waitForIdle(page)
    await expect(card).toHaveAttribute('data-status', 'denied')
    await expect(card).toContainText('Not run: you declined it.')
    // the reply speaks to the user; what the model was told stays behind the card's details
    await expect(lastAssistant(page)).toContainText('You denied get_weather')
    await expect(lastAssistant(page)).not.toContainText('Do not call it again')
    await card.getByTestId('tool-details-toggle').click()
    await expect(card.getByTestId('tool-output')).toContainText('Do not call it again')
    await expect(card).toContainText('What the model was told')
    expect(outside).toEqual([])
  })
})

test.describe('approval in chats running on the server', () => {
  test('the job pauses on the call; Allow once from the tab goes through POST /api/chats/:id/approvals and the job goes on', async ({ page }) => {
    await openWithFetchTool(page, true)
    const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
    const card = await askToRead(page)
    const jobId = ((await (await started).json()) as { id: string }).id
    expect(fetched).toEqual([])

    // the answer route, as an attacker would try it
    const post = (body: unknown) => page.evaluate(async ({ id, payload }) => {
      const response = await fetch(`/api/chats/${id}/approvals`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) })
      return response.status
    }, { id: jobId, payload: body })
    expect((await fetch(`${app.url}/api/chats/${jobId}/approvals`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"callId":"x","decision":"denied"}' })).status).toBe(401)
    expect((await app.fetchWithSession(`/api/chats/${jobId}/approvals`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"callId":"x","decision":"denied"}' })).status).toBe(404)
    expect(await post('{not json')).toBe(400)
    expect(await post({ callId: 'x', decision: 'maybe' })).toBe(400)
    expect(await post({ callId: 'x', decision: 'denied', extra: true })).toBe(400)
    expect(await post({ callId: 'x'.repeat(300), decision: 'denied' })).toBe(400)
    expect(await post({ callId: 'no-such-call', decision: 'denied' })).toBe(409)
    await expect(card).toHaveAttribute('data-status', 'awaiting-approval')

    await card.getByRole('button', { name: 'Allow once' }).click()
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Sea otters hold hands while they sleep.')
    expect(fetched).toEqual(['/otters'])
    expect(await post({ callId: 'no-such-call', decision: 'denied' })).toBe(409)
  })

  test('another tab of the session answers a paused job after this one reloaded, with edited arguments', async ({ page, context }) => {
    await openWithFetchTool(page, true)
    await askToRead(page)
    await page.reload()
    await waitForReady(page)
    await expect(fetchCard(page)).toHaveAttribute('data-status', 'awaiting-approval')
    await expect(page.getByText('Interrupted')).toHaveCount(0)
    const other = await context.newPage()
    await openApp(other, page.url())
    const card = fetchCard(other)
    await expect(card).toHaveAttribute('data-status', 'awaiting-approval', { timeout: 15_000 })
    await card.getByLabel('url').fill(`http://${host}/whales`)
    await card.getByRole('button', { name: 'Allow once' }).click()
    await expect(lastAssistant(page)).toContainText('Blue whales are the largest animals ever known.', { timeout: 15_000 })
    expect(fetched).toEqual(['/whales'])
  })
})
