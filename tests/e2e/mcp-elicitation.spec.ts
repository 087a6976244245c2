import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { openApp, sendMessage, waitForIdle, watchCspViolations } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { addMcpServer } from './support/mcp-settings'
import { seriousViolations } from './support/axe'

// A real MCP server whose tools ask the user (elicitation) and report progress, reached through the app's relay;
// the demo model calls the tool the message names. The question is answered on the call's card, within the call.
let app: AppInstance
let server: McpTestServer

test.beforeAll(async () => {
  server = await startMcpTestServer({ cors: false, interactive: true })
  app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${server.port}` })
})

test.afterAll(async () => {
  await app?.stop()
  await server?.close()
})

async function addSurveyServer(page: Page) {
  await addMcpServer(page, 'Survey', server.url)
  await page.getByTestId('settings-cancel').click()
}

/** Sends the message that calls `tool` and allows the call; returns its card. */
async function callAndAllow(page: Page, tool: string) {
  await sendMessage(page, `call survey__${tool}`)
  const card = page.locator(`[data-testid="tool-card"][data-tool="survey__${tool}"]`)
  await card.getByTestId('approval-allow-once').click()
  return card
}

async function finishedReply(page: Page) {
  await expect(page.locator('main')).toHaveAttribute('data-streaming', 'false', { timeout: 20_000 })
  await waitForIdle(page)
}

test.describe('MCP servers that ask and report', () => {
  test('a form the server asks for is shown on the card with its defaults, checked, and accepted within the call', async ({ page }) => {
    // axe reads the whole page: slow on a busy machine
    test.slow()
    const violations = await watchCspViolations(page)
    await openApp(page, app.url)
    await addSurveyServer(page)
    const before = server.elicitAnswers.length
    const card = await callAndAllow(page, 'ask_profile')
    const form = card.getByTestId('mcp-elicitation')
    await expect(form).toBeVisible({ timeout: 15_000 })
    await expect(form.getByTestId('mcp-elicitation-message')).toHaveText('Tell us about you.')
    await expect(form).toContainText('Survey asks:')
    // the schema's defaults are filled in
    await expect(form.getByLabel('Age')).toHaveValue('30')
    await expect(form.getByLabel('Colour')).toHaveValue('green')
    await expect(form.getByLabel('Subscribe')).toBeChecked()
    await expect(form.getByRole('checkbox', { name: 'cheese' })).toBeChecked()

    // a required field left empty and a bad email keep the answer back, saying why
    await form.getByLabel('Email').fill('not-an-email')
    await form.getByTestId('mcp-elicitation-accept').click()
    await expect(form.locator('[data-field="name"] [data-slot="field-error"]')).toHaveText('required')
    await expect(form.locator('[data-field="email"] [data-slot="field-error"]')).toHaveText('enter an email address')
    expect(server.elicitAnswers.length).toBe(before)

    await form.getByLabel('Your name').fill('Ada')
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Size').selectOption('s')
    await form.getByRole('checkbox', { name: 'olives' }).check()
    await page.setViewportSize({ width: 1280, height: 900 })
    await card.screenshot({ path: '/tmp/elicit-form-desktop.png' })
    expect(await seriousViolations(page, { include: '[data-testid="mcp-elicitation"]' })).toEqual([])
    await form.getByTestId('mcp-elicitation-accept').click()
    await finishedReply(page)
    await expect(card).toHaveAttribute('data-status', 'done')
    expect(server.elicitAnswers.at(-1)).toEqual({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 30, score: 0.5, subscribe: true, color: 'green', size: 's', toppings: ['cheese', 'olives'] } })
    await expect(card.getByTestId('tool-summary')).toContainText('"name":"Ada"')
    await expect(form).toHaveCount(0)
    expect(violations).toEqual([])
  })

  test('Decline answers the server and the call goes on; a page to open is shown and opened only on consent', async ({ page, context }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await openApp(page, app.url)
    await addSurveyServer(page)
    const card = await callAndAllow(page, 'ask_profile')
    await card.getByTestId('mcp-elicitation-decline').click()
    await finishedReply(page)
    await expect(card).toHaveAttribute('data-status', 'done')
    expect(server.elicitAnswers.at(-1)).toEqual({ action: 'decline' })

    await context.route('https://example.com/**', route => route.fulfill({ contentType: 'text/html', body: '<p>consent page</p>' }))
    let opened = 0
    context.on('page', () => opened++)
    const linkCard = await callAndAllow(page, 'ask_link')
    const question = linkCard.getByTestId('mcp-elicitation')
    await expect(question.getByTestId('mcp-elicitation-url')).toHaveText('https://example.com/consent?step=1')
    await linkCard.screenshot({ path: '/tmp/elicit-url-phone.png' })
    expect(opened).toBe(0)
    const popup = context.waitForEvent('page')
    await question.getByTestId('mcp-elicitation-accept').click()
    expect((await popup).url()).toBe('https://example.com/consent?step=1')
    await finishedReply(page)
    expect(server.elicitAnswers.at(-1)).toEqual({ action: 'accept' })
  })

  test('progress the server reports is shown on the running call\'s card', async ({ page }) => {
    await openApp(page, app.url)
    await addSurveyServer(page)
    const card = await callAndAllow(page, 'count_slowly')
    await expect(card.getByTestId('mcp-progress-text')).toHaveText('3 of 3 — step 3', { timeout: 15_000 })
    await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100')
    await card.screenshot({ path: '/tmp/elicit-progress-desktop.png' })
    server.releaseSlowCalls()
    await finishedReply(page)
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(card.getByTestId('mcp-progress')).toHaveCount(0)
  })
})
