import { expect, test } from './support/own-upstream'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'

// "Keep running when I close the tab" with the user's own OpenRouter key: the reply runs on the server with that
// key (the fake OpenRouter sees it in the Authorization header), so closing the tab mid-reply does not stop it.
test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

const USER_KEY = 'sk-or-v1-e2e-own-key-0b5f27'

test('with my own key and the switch on, closing the tab mid-reply does not stop it', async ({ context, upstream }) => {
  const page = await context.newPage()
  await openAppWith(page, { provider: openRouterProvider('fake/slow-tools', USER_KEY) })

  await page.getByTestId('settings-open').click()
  const privacy = page.getByTestId('key-privacy')
  await expect(privacy).toContainText('never to this app\'s server')
  await page.getByTestId('keep-running-own-key').check()
  await expect(privacy).toContainText('it goes to this app\'s server with each reply')
  await page.getByTestId('settings-save').click()
  await expect(page.getByTestId('settings-panel')).toHaveCount(0)

  await upstream.clear()
  const browserCalls: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('openrouter.ai')) browserCalls.push(request.url())
  })
  const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
  await sendMessage(page, 'On my own key: what is 6*7? Then talk for a while.')
  expect((await started).status()).toBe(201)
  await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
  await expect(lastAssistant(page)).toContainText('word3', { timeout: 15_000 })
  const threadUrl = new URL(page.url()).pathname + new URL(page.url()).search
  await page.close()
  expect(browserCalls).toEqual([])

  const again = await context.newPage()
  await openApp(again, threadUrl)
  await waitForIdle(again)
  await expect(lastAssistant(again)).toContainText('word54 The end.')
  await expect(lastAssistant(again)).toHaveAttribute('data-status', 'complete')
  await expect(again.getByText('Interrupted')).toHaveCount(0)
  const ours = (await upstream.requests()).filter(request => JSON.stringify(request.body).includes('On my own key'))
  const authorizations = ours.map(request => request.headers.authorization)
  expect(authorizations).toEqual([`Bearer ${USER_KEY}`, `Bearer ${USER_KEY}`])
})
