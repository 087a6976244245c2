import type { Page } from '@playwright/test'
import { expect, test } from './support/own-upstream'
import { compatibleProvider, lastAssistant, openApp, sendMessage, storeSettings, waitForIdle, waitForReady } from './helpers'

/** Stores OpenAI-compatible settings as the settings panel would, then reloads. */
async function useCompatibleEndpoint(page: Page, settings: { baseUrl: string, apiKey?: string, model: string, toolCallMode?: 'native' | 'auto' | 'text' }) {
  await storeSettings(page, { provider: compatibleProvider(settings) })
  await openApp(page)
}

test.describe('providers', () => {
  test.beforeEach(async ({ upstream }) => {
    await upstream.clear()
  })

  test('an OpenAI-compatible endpoint chosen in Settings answers straight from the browser', async ({ page, upstream }) => {
    await openApp(page)
    await page.getByTestId('settings-open').click()
    await page.getByTestId('provider-openai-compatible').check()
    await page.getByLabel('Base URL').fill(`${upstream.url}/api/v1`)
    await page.getByLabel('API key (optional)').fill('sk-local-key')
    // The page's CSP lists only endpoints the user chose: allowing this one reloads once and keeps the form.
    await page.getByTestId('allow-connect').click()
    await waitForReady(page)
    await expect(page.getByLabel('Base URL')).toHaveValue(`${upstream.url}/api/v1`)
    await expect(page.getByLabel('API key (optional)')).toHaveValue('sk-local-key')
    await page.getByTestId('model-picker').click()
    await page.getByRole('option', { name: /Fake: recorded text/ }).click()
    await page.getByTestId('settings-save').click()
    await expect(page.getByTestId('settings-panel')).toBeHidden()

    await sendMessage(page, 'Name two pets')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Pebbles and Skipper')
    const requests = await upstream.requests()
    expect(requests.at(-1)!.headers.authorization).toBe('Bearer sk-local-key')
    expect(requests.at(-1)!.body.model).toBe('fake/text')

    // Remembered across visits.
    await page.reload()
    await openApp(page)
    await expect(page.getByText('fake/text').first()).toBeVisible()
  })

  test('says clearly when the endpoint cannot be reached, and keeps the message', async ({ page }) => {
    await openApp(page)
    await useCompatibleEndpoint(page, { baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3' })
    await sendMessage(page, 'Are you there?')
    const reply = lastAssistant(page)
    await expect(reply).toContainText(/cannot reach/i, { timeout: 15_000 })
    await expect(reply.getByRole('button', { name: /retry/i })).toBeVisible()
    await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('Are you there?')
  })

  test('a local model that writes tool calls as text gets them run, and the markup is hidden', async ({ page, upstream }) => {
    await openApp(page)
    await useCompatibleEndpoint(page, { baseUrl: `${upstream.url}/api/v1`, apiKey: 'k', model: 'fake/text-tool-calls', toolCallMode: 'auto' })
    await sendMessage(page, 'What is 6*7?')
    await waitForIdle(page)
    const card = page.locator('[data-testid="tool-card"]').first()
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(lastAssistant(page)).toContainText(/The tool returned: .*42/)
    await expect(page.getByText('<tool_call>')).toHaveCount(0)
    const history = (await upstream.requests()).at(-1)!.body.messages as Array<{ role: string, tool_calls?: unknown[] }>
    expect(history.map(message => message.role)).toEqual(['user', 'assistant', 'tool'])
    expect(history[1]!.tool_calls).toHaveLength(1)
  })

  test('text-only tool calling describes the tools in a system message instead of sending tools', async ({ page, upstream }) => {
    await openApp(page)
    await useCompatibleEndpoint(page, { baseUrl: `${upstream.url}/api/v1`, apiKey: 'k', model: 'fake/text-tool-calls', toolCallMode: 'text' })
    await sendMessage(page, 'What is 6*7?')
    await waitForIdle(page)
    const first = (await upstream.requests())[0]!.body
    expect(first).not.toHaveProperty('tools')
    expect(first).not.toHaveProperty('tool_choice')
    const system = (first.messages as Array<{ role: string, content: string }>)[0]!
    expect(system.role).toBe('system')
    expect(system.content).toContain('### calculate')
    await expect(page.locator('[data-testid="tool-card"]').first()).toHaveAttribute('data-status', 'done')
  })

  test('a local reasoning model\'s <think> block shows as collapsed reasoning, not as text', async ({ page, upstream }) => {
    await openApp(page)
    await useCompatibleEndpoint(page, { baseUrl: `${upstream.url}/api/v1`, apiKey: 'k', model: 'fake/think' })
    await sendMessage(page, 'Name two pets')
    await waitForIdle(page)
    const reply = lastAssistant(page)
    await expect(reply).toContainText('Pebbles and Skipper.')
    await expect(reply).not.toContainText('<think>')
    const reasoning = reply.getByTestId('reasoning')
    await expect(reasoning).not.toHaveAttribute('open')
    await reasoning.getByText('Reasoning').click()
    await expect(reasoning).toContainText('Classic ones: Pebbles, Skipper.')
  })

  test('without IndexedDB the app still chats, in memory, and says so', async ({ page }) => {
    await page.addInitScript(() => {
      // As in browsers and modes without IndexedDB: opening fails, so the app must fall back to memory.
      IDBFactory.prototype.open = function () {
        throw new DOMException('IndexedDB is disabled in this mode.', 'InvalidStateError')
      }
    })
    await openApp(page)
    await expect(page.getByTestId('storage-warning')).toContainText(/memory only/i)
    // Not sendMessage: it waits for the question in IndexedDB, which this page has none of; a chat this short keeps
    // every message on screen.
    await page.getByTestId('composer-input').fill('Hello without storage')
    await page.getByTestId('composer-input').press('Enter')
    await expect(page.locator('[data-testid="message"][data-role="user"]').filter({ hasText: 'Hello without storage' })).toBeVisible()
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText(/scripted demo/i)
  })
})
