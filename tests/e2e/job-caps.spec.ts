import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FAKE_URL, lastAssistant, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'

// Issue 20's holds: a session may keep only so many unfinished chats on the server (here 2), and a chat waiting for
// an approval nobody gives ends without an answer after NUXT_JOB_WAIT_TIMEOUT_MS. fake/fetch-page calls
// fetch_web_page, which acts outside the app, so every chat waits for an approval.

const server = { NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key', NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`, NUXT_PUBLIC_DEFAULT_MODEL: 'fake/fetch-page' }
let capped: AppInstance
let hurried: AppInstance

test.beforeAll(async () => {
  ;[capped, hurried] = await Promise.all([
    startApp({ ...server, NUXT_JOB_MAX_ACTIVE_PER_SESSION: '2' }),
    startApp({ ...server, NUXT_JOB_WAIT_TIMEOUT_MS: '1500' }),
  ])
})

test.afterAll(async () => {
  await Promise.all([capped?.stop(), hurried?.stop()])
})

async function openOnServer(page: Page, app: AppInstance) {
  await openAppWith(page, { provider: openRouterProvider('fake/fetch-page'), runOnServer: true, toolStates: { fetch_web_page: true } }, app.url)
}

/** Starts a server chat from this page's session that waits for an approval; resolves with the HTTP status. */
function startWaitingChat(page: Page, threadId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const response = await fetch('/api/chats', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: id, model: 'fake/fetch-page', messages: [{ role: 'user', content: 'Read http://127.0.0.1:9/nothing' }], serverTools: ['fetch_web_page'], toolPolicies: { fetch_web_page: 'ask' } }),
    })
    return response.status
  }, threadId)
}

test('a session past its cap on unfinished server chats is told why in the chat (429)', async ({ page }) => {
  await openOnServer(page, capped)
  expect(await startWaitingChat(page, 'held-1')).toBe(201)
  expect(await startWaitingChat(page, 'held-2')).toBe(201)

  const refused = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
  await sendMessage(page, 'Read http://127.0.0.1:9/more')
  expect((await refused).status()).toBe(429)
  await waitForIdle(page)
  const error = page.getByTestId('message-error').last()
  await expect(error).toContainText('You already have 2 replies running or waiting on the server')
  await expect(error).not.toContainText('Something went wrong')
  await expect(lastAssistant(page)).toHaveAttribute('data-status', 'error')
})

test('an approval nobody gives ends as "no answer" after the wait limit, and the reply goes on', async ({ page }) => {
  await openOnServer(page, hurried)
  await sendMessage(page, 'Read http://127.0.0.1:9/otters')
  const card = page.locator('[data-testid="tool-card"][data-tool="fetch_web_page"]').last()
  await expect(card).toHaveAttribute('data-status', 'awaiting-approval', { timeout: 15_000 })
  // nobody answers: after 1.5 s the call ends without running and the model is told so
  await expect(card).toHaveAttribute('data-status', 'denied', { timeout: 15_000 })
  await expect(card).toContainText('did not answer the approval request in time')
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText('I read the page.')
  await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')
})
