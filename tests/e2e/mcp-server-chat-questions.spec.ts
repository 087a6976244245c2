import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FAKE_URL, lastAssistant, openAppWith, openRouterProvider, sendMessage, waitForIdle, waitForReady, watchCspViolations } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'

// The operator's MCP server (NUXT_MCP_SERVERS), a real one whose tools ask the user, and chats that run on the
// server (the server's key, pointed at the fake OpenRouter, whose fake/call-named model calls the tool the message
// names). The job parks on the server's question like on an approval; the tab shows the same form on the card and
// its answer goes back through POST /api/chats/:id/questions, checked against the form on the server.
let app: AppInstance
let survey: McpTestServer

test.beforeAll(async () => {
  survey = await startMcpTestServer({ cors: false, interactive: true })
  app = await startApp({
    NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
    NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`,
    NUXT_MCP_SERVERS: JSON.stringify([{ name: 'Survey', url: survey.url }]),
  })
  // the operator's tools are registered once the server connected
  await expect.poll(async () => {
    const body = await (await app.fetchWithSession('/api/tools')).json() as { tools: Array<{ name: string }> }
    return body.tools.map(tool => tool.name)
  }, { timeout: 20_000 }).toContain('survey__ask_profile')
})

test.afterAll(async () => {
  await app?.stop()
  await survey?.close()
})

const TOOLS = ['survey__ask_profile', 'survey__ask_link']

async function openServerChat(page: Page) {
  await openAppWith(page, {
    provider: openRouterProvider('fake/call-named'),
    runOnServer: true,
    toolStates: Object.fromEntries(TOOLS.map(name => [name, true])),
    toolPolicies: Object.fromEntries(TOOLS.map(name => [name, 'auto'])),
  }, app.url)
}

/** Sends the message that makes the model call `tool`; returns the job's id and the call's card. */
async function callOnServer(page: Page, tool: string) {
  const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
  await sendMessage(page, `call survey__${tool} {}`)
  const jobId = ((await (await started).json()) as { id: string }).id
  return { jobId, card: page.locator(`[data-testid="tool-card"][data-tool="survey__${tool}"]`) }
}

test.describe('MCP questions in chats that run on the server', () => {
  test('the form shows on the card, the job waits paused, and the checked answer reaches the server within the call', async ({ page }) => {
    const violations = await watchCspViolations(page)
    await openServerChat(page)
    const before = survey.elicitAnswers.length
    const { jobId, card } = await callOnServer(page, 'ask_profile')
    const form = card.getByTestId('mcp-elicitation')
    await expect(form).toBeVisible({ timeout: 20_000 })
    await expect(form).toContainText('Survey asks:')
    await expect(form.getByTestId('mcp-elicitation-message')).toHaveText('Tell us about you.')
    await expect(form.getByLabel('Age')).toHaveValue('30')
    await expect(form.getByLabel('Colour')).toHaveValue('green')
    const status = async () => ((await (await page.request.get(`${app.url}/api/chats/${jobId}`)).json()) as { status: string }).status
    await expect.poll(status).toBe('paused')

    // the answer route, as an attacker would try it
    const pending = await page.evaluate(async id => (await (await fetch(`/api/chats/${id}/questions`)).json()) as { questions: Array<{ callId: string }> }, jobId)
    const callId = pending.questions[0]!.callId
    const post = (body: unknown) => page.evaluate(async ({ id, payload }) => {
      const response = await fetch(`/api/chats/${id}/questions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) })
      return { status: response.status, message: ((await response.json().catch(() => ({}))) as { message?: string }).message }
    }, { id: jobId, payload: body })
    const body = JSON.stringify({ callId, action: 'decline' })
    expect((await fetch(`${app.url}/api/chats/${jobId}/questions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401)
    expect((await app.fetchWithSession(`/api/chats/${jobId}/questions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(404)
    expect((await app.fetchWithSession(`/api/chats/${jobId}/questions`)).status).toBe(404)
    expect((await post('{not json')).status).toBe(400)
    expect((await post({ callId, action: 'maybe' })).status).toBe(400)
    expect((await post({ callId, action: 'decline', content: { name: 'Ada' } })).status).toBe(400)
    expect((await post({ callId, action: 'accept', content: { name: 'x'.repeat(300_000) } })).status).toBe(413)
    expect(await post({ callId, action: 'accept', content: { name: 'Ada', age: 'thirty' } })).toEqual({ status: 400, message: 'The answer does not fit the form: "Age" has a value of the wrong type' })
    expect((await post({ callId, action: 'accept', content: { name: 'Ada', role: 'admin' } })).status).toBe(400)
    expect((await post({ callId: 'no-such-call', action: 'decline' })).status).toBe(409)
    expect(survey.elicitAnswers.length).toBe(before)
    await expect(form).toBeVisible()

    await form.getByLabel('Your name').fill('Ada')
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Size').selectOption('s')
    await form.getByRole('checkbox', { name: 'olives' }).check()
    await page.setViewportSize({ width: 1280, height: 900 })
    await card.screenshot({ path: '/tmp/mcp3/server-chat-elicitation.png' })
    const answered = page.waitForResponse(response => response.url().endsWith(`/api/chats/${jobId}/questions`) && response.request().method() === 'POST')
    await form.getByTestId('mcp-elicitation-accept').click()
    expect((await answered).status()).toBe(200)
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
    await waitForIdle(page)
    await expect(form).toHaveCount(0)
    expect(survey.elicitAnswers.slice(before)).toEqual([{ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 30, score: 0.5, subscribe: true, color: 'green', size: 's', toppings: ['cheese', 'olives'] } }])
    await expect(lastAssistant(page)).toContainText('The tool returned: The user answered')
    expect(await status()).toBe('done')
    // answered: nothing waits any more
    expect((await post({ callId, action: 'decline' })).status).toBe(409)
    expect(violations).toEqual([])
  })

  test('a tab that reloads while the job waits shows the question again, and Decline goes back to the server', async ({ page }) => {
    await openServerChat(page)
    const before = survey.elicitAnswers.length
    const { card } = await callOnServer(page, 'ask_link')
    await expect(card.getByTestId('mcp-elicitation')).toBeVisible({ timeout: 20_000 })
    await page.reload()
    await waitForReady(page)
    const form = card.getByTestId('mcp-elicitation')
    await expect(form).toBeVisible({ timeout: 20_000 })
    await expect(form).toHaveAttribute('data-mode', 'url')
    await expect(form.getByTestId('mcp-elicitation-url')).toHaveText('https://example.com/consent?step=1')
    await form.getByRole('button', { name: 'Decline' }).click()
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
    expect(survey.elicitAnswers.slice(before)).toEqual([{ action: 'decline' }])
  })
})
