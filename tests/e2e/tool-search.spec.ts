import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './support/own-upstream'
import { lastAssistant, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'

// Many tools switched on: a request carries a few of them plus find_tools; the tool find_tools finds is offered from
// the next request on, in the tab and in a chat the server runs.

test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

// Each test runs a whole chat on a shared, loaded machine.
test.describe.configure({ timeout: 90_000 })

/** 40 tools beside the built-in ones, one of which converts currencies. */
async function registerManyTools(page: Page) {
  await page.evaluate(() => {
    const app = window as unknown as { plugboard: { registerTool: (definition: unknown, handler: () => unknown) => void } }
    for (let index = 0; index < 40; index++) {
      app.plugboard.registerTool(
        { type: 'function', function: { name: `pebble_count_${index}`, description: `Counts the pebbles in garden bucket number ${index}.`, parameters: { type: 'object', properties: {} } } },
        () => `${index} pebbles`,
      )
    }
    app.plugboard.registerTool(
      { type: 'function', function: { name: 'convert_currency', description: 'Converts an amount of money between currencies at today\'s exchange rate.', parameters: { type: 'object', properties: { amount: { type: 'number' } } } } },
      () => '10 EUR is 11.60 USD',
    )
  })
}

interface Definition { type: 'function', function: { name: string, description?: string, parameters?: unknown } }

/**
 * 300 real tool definitions (the BFCL corpus), none about money, plus convert_currency: registered in the page,
 * the definitions that were accepted returned (the whole enabled set a request would carry without tool search).
 */
async function registerCorpusTools(page: Page): Promise<Definition[]> {
  const corpus = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/corpora/tool-schemas/bfcl_tools.openai.json'), 'utf8')) as Definition[]
  const unique = [...new Map(corpus.map(tool => [tool.function.name, tool])).values()]
    .filter(tool => !/currenc|exchange|convert|money/i.test(JSON.stringify(tool)))
  return page.evaluate(({ candidates, wanted }) => {
    const app = window as unknown as { plugboard: { registerTool: (definition: unknown, handler: () => unknown) => void } }
    const registered: Definition[] = []
    for (const definition of candidates) {
      if (registered.length === wanted) break
      try {
        app.plugboard.registerTool(definition, () => `${definition.function.name} ran`)
        registered.push(definition)
      }
      catch {
        // a definition the registry refuses is not part of the enabled set
      }
    }
    const currency: Definition = { type: 'function', function: { name: 'convert_currency', description: 'Converts an amount of money between currencies at today\'s exchange rate.', parameters: { type: 'object', properties: { amount: { type: 'number' } } } } }
    app.plugboard.registerTool(currency, () => '10 EUR is 11.60 USD')
    return [...registered, currency]
  }, { candidates: unique.slice(0, 400), wanted: 300 })
}

function offeredNames(request: { body: Record<string, unknown> }): string[] {
  return ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map(tool => tool.function.name)
}

for (const runOnServer of [false, true]) {
  test(`with 40+ tools on, the first request carries a few plus find_tools and the next the tool it found (${runOnServer ? 'server-run chat' : 'in the tab'})`, async ({ page, upstream }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/tool-search'), runOnServer })
    await registerManyTools(page)
    const question = `convert currency exchange rate ${runOnServer ? 'server' : 'tab'} ${Date.now()}`
    await sendMessage(page, question)
    await waitForIdle(page)

    const search = page.locator('[data-testid="tool-card"][data-tool="find_tools"]')
    await expect(search).toHaveAttribute('data-status', 'done')
    await expect(search.getByTestId('tool-summary')).toContainText('Loaded')
    await expect(page.locator('[data-testid="tool-card"][data-tool="convert_currency"]')).toHaveAttribute('data-status', 'done')
    await expect(lastAssistant(page)).toContainText('10 EUR is 11.60 USD')

    const requests = (await upstream.requests()).filter(request => JSON.stringify(request.body.messages).includes(question))
    expect(requests).toHaveLength(3)
    const [first, second] = requests.map(offeredNames)
    expect(first).toContain('find_tools')
    expect(first).not.toContain('convert_currency')
    expect(first!.some(name => name.startsWith('pebble_count_'))).toBe(false)
    expect(first!.length).toBeLessThanOrEqual(7)
    expect(second).toContain('convert_currency')
    expect(second!.length).toBeLessThanOrEqual(first!.length + 5)
    // the model is told what was loaded and why
    const toolMessage = (requests[1]!.body.messages as Array<{ role: string, content: string }>).at(-1)!
    expect(toolMessage.content).toMatch(/^Loaded \d tools? for "[^"]+"; you can call (it|them) from your next step on:\n- convert_currency: /)
    // the whole enabled set would have been far larger than what was sent
    expect(JSON.stringify(requests[0]!.body.tools).length).toBeLessThan(3_000)

    // the tools popover says that tool search is on
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-search-note')).toContainText('Tool search is on', { timeout: 15_000 })
  })
}

test('Settings → Tools raises the threshold: 40 tools then go to the model as they are', async ({ page, upstream }) => {
  await openAppWith(page, { provider: openRouterProvider('fake/tool-search'), runOnServer: false })
  await page.getByTestId('settings-open').click()
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible({ timeout: 15_000 })
  await page.getByTestId('tool-search-threshold').fill('100')
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('plugboard:tool-search:v1') ?? '{}').threshold)).toBe(100)
  await page.keyboard.press('Escape')
  await registerManyTools(page)
  const question = `convert currency without search ${Date.now()}`
  await sendMessage(page, question)
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText('find_tools was not offered to me.')
  const [first] = (await upstream.requests()).filter(request => JSON.stringify(request.body.messages).includes(question)).map(offeredNames)
  expect(first).toContain('convert_currency')
  expect(first).not.toContain('find_tools')
})

test('with 300 real tool definitions on, each request carries at least ten times fewer tool bytes than the enabled set', async ({ page, upstream }) => {
  await openAppWith(page, { provider: openRouterProvider('fake/tool-search'), runOnServer: false })
  const enabled = await registerCorpusTools(page)
  expect(enabled).toHaveLength(301)
  const question = `convert currency exchange rate corpus ${Date.now()}`
  await sendMessage(page, question)
  await waitForIdle(page)
  await expect(page.locator('[data-testid="tool-card"][data-tool="convert_currency"]')).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await expect(lastAssistant(page)).toContainText('10 EUR is 11.60 USD')

  // the sizes as the upstream received them: every step of the chat, against what the enabled set alone weighs
  const requests = (await upstream.requests()).filter(request => JSON.stringify(request.body.messages).includes(question))
  expect(requests).toHaveLength(3)
  const enabledBytes = Buffer.byteLength(JSON.stringify(enabled))
  for (const request of requests) expect(Buffer.byteLength(JSON.stringify(request.body.tools)) * 10).toBeLessThan(enabledBytes)
  expect(offeredNames(requests[0]!)).not.toContain('convert_currency')
  expect(offeredNames(requests[1]!)).toContain('convert_currency')
})
