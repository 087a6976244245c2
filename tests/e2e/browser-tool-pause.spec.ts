import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, newAppContext, openApp, openAppWith, openRouterProvider, PROXY_APP_URL, sendMessage, waitForIdle } from './helpers'

// A chat running on the server (the server's key, the default) calls read_page_note, a tool only the user's tab
// has: the job pauses with the card "waiting for this browser" until a tab of the session answers, or the user
// cancels the wait. fake/browser-tool calls read_page_note, then quotes its result.
test.use({ baseURL: PROXY_APP_URL })

const WAITING = 'waiting for this browser'

/** The provider: OpenRouter on the server's key, model fake/browser-tool. */
async function useBrowserToolModel(page: Page) {
  await openAppWith(page, { provider: openRouterProvider('fake/browser-tool') })
}

/**
 * Registers read_page_note in the page through the plugin authors' console API. It answers when the test calls
 * `window.__answerNote(text)`, or at once with `answer`.
 */
async function registerNoteTool(page: Page, answer?: string) {
  await page.evaluate((answer) => {
    const api = (window as any).plugboard
    api.registerTool(
      { type: 'function', function: { name: 'read_page_note', description: 'Reads the note the user keeps in this tab', parameters: { type: 'object', properties: {} } }, timeoutMs: 120_000 },
      () => (answer !== undefined ? answer : new Promise((resolve) => { (window as any).__answerNote = resolve })),
    )
  }, answer)
}

function noteCard(page: Page) {
  return page.locator('[data-testid="tool-card"][data-tool="read_page_note"]').first()
}

test.describe('a browser-only tool pausing a chat that runs on the server', () => {
  test('the card waits for this browser; the page answers and the reply completes', async ({ page, browser }) => {
    await useBrowserToolModel(page)
    await registerNoteTool(page)
    const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
    await sendMessage(page, 'What does my note say?')
    const jobId = ((await (await started).json()) as { id: string }).id
    await expect(noteCard(page).getByTestId('tool-summary')).toHaveText(WAITING, { timeout: 15_000 })
    await expect(noteCard(page)).toHaveAttribute('data-status', 'running')

    // Another browser session that learned the job's id can neither answer nor cancel the call, nor stop the job.
    const stranger = await newAppContext(browser, { baseURL: PROXY_APP_URL })
    const strangerPage = await stranger.newPage()
    await openApp(strangerPage)
    const statuses = await strangerPage.evaluate(async (id) => {
      const post = (path: string, body: unknown) => fetch(`/api/chats/${id}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(response => response.status)
      return [await post('tool-results', { callId: 'any', content: 'Injected note' }), await post('tool-results', { callId: 'any', cancelled: true }), await post('stop', {})]
    }, jobId)
    expect(statuses).toEqual([404, 404, 404])
    await stranger.close()
    await expect(noteCard(page)).toHaveAttribute('data-status', 'running')
    await page.evaluate(() => (window as any).__answerNote('Buy oat milk'))
    await waitForIdle(page)
    await expect(noteCard(page)).toHaveAttribute('data-status', 'done')
    await expect(lastAssistant(page)).toContainText('The page note says: Buy oat milk')
    await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')
  })

  test('after the page closes mid-wait, the returning tab answers the call and the job completes', async ({ context }) => {
    const first = await context.newPage()
    await useBrowserToolModel(first)
    // This tab never answers: it closes first.
    await registerNoteTool(first)
    await sendMessage(first, 'What does my note say?')
    await expect(noteCard(first).getByTestId('tool-summary')).toHaveText(WAITING, { timeout: 15_000 })
    const threadUrl = new URL(first.url()).pathname + new URL(first.url()).search
    await first.close()

    const again = await context.newPage()
    // The returning tab has the tool as soon as its plugin API exists (before it reads on from the server).
    await again.addInitScript(() => {
      const timer = setInterval(() => {
        const api = (window as any).plugboard
        if (!api) return
        clearInterval(timer)
        api.registerTool(
          { type: 'function', function: { name: 'read_page_note', description: 'Reads the note the user keeps in this tab', parameters: { type: 'object', properties: {} } } },
          () => 'Water the plants',
        )
      }, 5)
    })
    await openApp(again, threadUrl)
    await waitForIdle(again)
    await expect(noteCard(again)).toHaveAttribute('data-status', 'done')
    await expect(lastAssistant(again)).toContainText('The page note says: Water the plants')
    await expect(again.getByText('Interrupted')).toHaveCount(0)
  })

  test('Cancel on the waiting card ends the wait with a cancelled result, and the chat goes on', async ({ page }) => {
    await useBrowserToolModel(page)
    await registerNoteTool(page)
    await sendMessage(page, 'What does my note say?')
    const card = noteCard(page)
    await expect(card.getByTestId('tool-summary')).toHaveText(WAITING, { timeout: 15_000 })
    await card.getByTestId('tool-wait-cancel').click()
    await waitForIdle(page)
    await expect(card).toHaveAttribute('data-status', 'cancelled')
    await expect(card.getByTestId('tool-wait-cancel')).toHaveCount(0)
    await expect(lastAssistant(page)).toContainText('The page note says:')
    await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')
    // The page's own answer, arriving late, is refused: the call is over.
    const late = page.waitForResponse(response => response.url().endsWith('/tool-results') && response.request().method() === 'POST')
    await page.evaluate(() => (window as any).__answerNote('Too late'))
    expect((await late).status()).toBe(409)
    await expect(card).toHaveAttribute('data-status', 'cancelled')
    await expect(lastAssistant(page)).not.toContainText('Too late')
  })
})
