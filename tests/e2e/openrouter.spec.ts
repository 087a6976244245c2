import { expect, test } from './support/own-upstream'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'

// This build runs with NUXT_OPENROUTER_API_KEY set and NUXT_OPENROUTER_BASE_URL pointing at the fake OpenRouter
// (tests/fixtures/fake-openrouter), so OpenRouter through the server's proxy is the default provider.
test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

test.describe('OpenRouter through the server proxy (fake OpenRouter replaying recorded streams)', () => {
  test.beforeEach(async ({ upstream }) => {
    await upstream.clear()
  })

  test('chats through the proxy with the server key, which never reaches the browser', async ({ page, upstream }) => {
    const seenInBrowser: string[] = []
    page.on('response', async (response) => {
      if (response.url().includes('/api/')) seenInBrowser.push(await response.text().catch(() => ''))
    })
    await openApp(page)
    await expect(page.getByText(/OpenRouter/).first()).toBeVisible()
    await sendMessage(page, 'Say hello')
    await waitForIdle(page)
    await expect(lastAssistant(page)).not.toBeEmpty()
    const requests = await upstream.requests()
    expect(requests.length).toBeGreaterThan(0)
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-or-test-server-key')
    expect(requests[0]!.headers['x-title']).toBeTruthy()
    expect(requests[0]!.headers['http-referer']).toBeTruthy()
    expect(seenInBrowser.join('\n')).not.toContain('sk-or-test-server-key')
  })

  test('the request carries exactly the enabled tools, and omits tools and tool_choice when none is enabled', async ({ page, upstream }) => {
    await openApp(page)
    await sendMessage(page, 'Which tools do you have?')
    await waitForIdle(page)
    let requests = await upstream.requests()
    const offered = (requests.at(-1)!.body.tools as Array<{ function: { name: string } }>).map(tool => tool.function.name).sort()
    const enabled: string[] = await page.evaluate(() => (window as any).plugboard.registry.getEnabledDefinitions().map((tool: any) => tool.function.name).sort())
    // search_chat_history is enabled but only available once earlier chats exist: this is the first one; and
    // search_documents only in a chat with a document.
    expect(enabled).toContain('search_chat_history')
    expect(offered).toEqual(enabled.filter(name => name !== 'search_chat_history' && name !== 'search_documents'))
    expect(offered).toContain('calculate')
    expect(offered).not.toContain('get_weather') // off by default
    expect(requests.at(-1)!.body.tool_choice).toBe('auto')
    for (const tool of requests.at(-1)!.body.tools as Array<Record<string, unknown>>) expect(Object.keys(tool).sort()).toEqual(['function', 'type'])

    await page.getByTestId('tool-popover-trigger').click()
    for (const name of enabled) await page.getByTestId(`tool-switch-${name}`).click()
    await page.keyboard.press('Escape')
    await upstream.clear()
    await sendMessage(page, 'And now?')
    await waitForIdle(page)
    requests = await upstream.requests()
    expect(requests).toHaveLength(1)
    expect(requests[0]!.body).not.toHaveProperty('tools')
    expect(requests[0]!.body).not.toHaveProperty('tool_choice')
  })

  for (const [model, pattern] of [
    ['fake/401', /key is missing or invalid/i],
    ['fake/402', /credits/i],
    ['fake/429', /rate limit/i],
    ['fake/unknown', /not available/i],
    ['fake/error-stream', /error/i],
  ] as const) {
    test(`shows a clear message with Retry for ${model}`, async ({ page }) => {
      await openApp(page)
      await page.evaluate((model) => {
        const raw = localStorage.getItem('plugboard:provider:v1')
        const settings = raw ? JSON.parse(raw) : null
        localStorage.setItem('plugboard:provider:v1', JSON.stringify({
          ...(settings ?? {}),
          version: 1,
          providerId: 'openrouter',
          openrouter: { keySource: 'server', apiKey: '', model },
          openaiCompatible: settings?.openaiCompatible ?? { baseUrl: 'http://localhost:11434/v1', apiKey: '', model: '', toolCallMode: 'auto' },
        }))
      }, model)
      await page.reload()
      await openApp(page)
      await sendMessage(page, 'Hello')
      const reply = lastAssistant(page)
      await expect(reply).toContainText(pattern, { timeout: 15_000 })
      await expect(reply.getByRole('button', { name: /retry/i })).toBeVisible()
      // Nothing the user wrote is lost.
      await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('Hello')
    })
  }

  test('the model calls a tool through OpenRouter and answers with its result', async ({ page, upstream }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/tools') })
    await sendMessage(page, 'Use a tool please')
    await expect(page.locator('[data-testid="tool-card"]').first()).toHaveAttribute('data-status', /done|error/, { timeout: 15_000 })
    await waitForIdle(page)
    const requests = await upstream.requests()
    expect(requests.length).toBeGreaterThanOrEqual(2)
    const history = requests.at(-1)!.body.messages as Array<{ role: string }>
    expect(history.map(message => message.role)).toEqual(['user', 'assistant', 'tool'])
  })
})

test('the model picker lists OpenRouter models and marks which support tools', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('settings-open').click()
  await expect(page.getByTestId('settings-panel')).toBeVisible()
  await page.getByTestId('model-picker').click()
  const withTools = page.getByRole('option', { name: /Fake: tool caller/ })
  const withoutTools = page.getByRole('option', { name: /Fake: recorded text/ })
  await expect(withTools).toContainText('tools')
  await expect(withoutTools).toContainText('no tools')
})
