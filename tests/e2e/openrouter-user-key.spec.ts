import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'

// openrouter.ai itself is out of reach here, so Playwright stands in for it at the network layer: the browser
// really navigates to /auth, really POSTs /auth/keys and /chat/completions, and we answer like OpenRouter does.

test('"Sign in with OpenRouter" (OAuth PKCE) stores a key, and chats then go straight to OpenRouter with it', async ({ page }) => {
  let challenge = ''
  let exchange: Record<string, string> = {}
  const chatRequests: Array<{ headers: Record<string, string>, body: Record<string, unknown> }> = []
  const titleRequests: typeof chatRequests = []

  await page.route('https://openrouter.ai/auth**', async (route) => {
    const url = new URL(route.request().url())
    challenge = url.searchParams.get('code_challenge') ?? ''
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    const callback = new URL(url.searchParams.get('callback_url')!)
    callback.searchParams.set('code', 'one-time-code')
    await route.fulfill({ status: 302, headers: { location: callback.toString() } })
  })
  await page.route('https://openrouter.ai/api/v1/auth/keys', async (route) => {
    exchange = route.request().postDataJSON()
    await route.fulfill({ status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify({ key: 'sk-or-v1-from-oauth' }) })
  })
  await page.route('https://openrouter.ai/api/v1/chat/completions', async (route) => {
    if (route.request().method() === 'OPTIONS') {
      return route.fulfill({ status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST' } })
    }
    const request = { headers: route.request().headers(), body: route.request().postDataJSON() }
    // The model is asked once, after the first reply, for the chat's title: counted apart.
    const isTitleRequest = String((request.body.messages as Array<{ content?: unknown }>)[0]?.content ?? '').startsWith('Write a title for this conversation')
    ;(isTitleRequest ? titleRequests : chatRequests).push(request)
    const body = readFileSync('tests/fixtures/corpora/sse-streams/llm-openrouter/test_prompt.1.sse', 'utf8')
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body })
  })
  await page.route('https://openrouter.ai/api/v1/models', route => route.fulfill({
    status: 200,
    headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
    body: JSON.stringify({ data: [{ id: 'openai/gpt-4o-mini', name: 'GPT-4o mini', supported_parameters: ['tools'] }] }),
  }))

  await openApp(page)
  await page.getByTestId('settings-open').click()
  await page.getByTestId('provider-openrouter').check()
  // Without a server key, "my own key" is the only choice and no key-source switch is shown.
  await expect(page.getByTestId('key-source-user')).toHaveCount(0)
  await page.getByTestId('openrouter-sign-in').click()

  // Back on the app with the key saved; the verifier sent matches the challenge sent to /auth.
  await page.waitForURL(url => url.pathname === '/')
  await openApp(page, page.url())
  expect(exchange.code).toBe('one-time-code')
  expect(createHash('sha256').update(exchange.code_verifier!).digest('base64url')).toBe(challenge)
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('plugboard:provider:v1')!))
  expect(saved).toMatchObject({ providerId: 'openrouter', openrouter: { keySource: 'user', apiKey: 'sk-or-v1-from-oauth' } })

  await sendMessage(page, 'Name two pets')
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText('Pebbles and Skipper')
  expect(chatRequests).toHaveLength(1)
  expect(chatRequests[0]!.headers.authorization).toBe('Bearer sk-or-v1-from-oauth')
  expect(chatRequests[0]!.headers['http-referer']).toBeTruthy()
  expect(chatRequests[0]!.headers['x-title']).toBe('Plugboard')
  // the title is asked on the same key, straight from the browser too
  await expect.poll(() => titleRequests.length).toBe(1)
  expect(titleRequests[0]!.headers.authorization).toBe('Bearer sk-or-v1-from-oauth')
})
