import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, newAppContext, openApp, openAppWith, openRouterProvider, PROXY_APP_URL, releaseHeldReply, sendMessage, waitForIdle } from './helpers'

// The build with the server's key pointed at the fake OpenRouter: with that key, a chat runs on the server by
// default. fake/slow-tools calls calculate, then answers in 20 chunks 150 ms apart; asked to "talk until I say so", the
// fake holds the answer after word6 until the test releases it (or the connection closes), so the tab closes or
// stops it mid-reply however long the steps before take.
test.use({ baseURL: PROXY_APP_URL })

async function useSlowModel(page: Page) {
  await openAppWith(page, { provider: openRouterProvider('fake/slow-tools') })
}

test.describe('chats that keep running on the server', () => {
  test('closing the page mid-reply does not stop it: a new page shows the whole reply with its card, not "Interrupted"', async ({ context, browser }) => {
    // 15–18 s alone (a tool step, then a reply paced by the fake); among the first tests of a run, while the other
    // workers start their browsers and apps, it ran past 30 s once
    test.slow()
    const page = await context.newPage()
    await useSlowModel(page)
    const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
    const question = 'What is 6*7? Then talk until I say so, and I close the page.'
    await sendMessage(page, question)
    const jobId = ((await (await started).json()) as { id: string }).id
    await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    // held from word6 on: the page closes mid-reply, and the release below finds the reply held
    await expect(lastAssistant(page)).toContainText('word6', { timeout: 15_000 })
    await expect(lastAssistant(page)).not.toContainText('The end.')
    const threadUrl = new URL(page.url()).pathname + new URL(page.url()).search
    await page.close()
    await releaseHeldReply(question)

    const again = await context.newPage()
    await openApp(again, threadUrl)
    await waitForIdle(again)
    await expect(lastAssistant(again)).toContainText('The tool returned 42.')
    await expect(lastAssistant(again)).toContainText('word54 The end.')
    await expect(lastAssistant(again)).toHaveAttribute('data-status', 'complete')
    await expect(again.locator('[data-testid="tool-card"][data-tool="calculate"]')).toHaveAttribute('data-status', 'done')
    await expect(again.locator('[data-status="interrupted"]')).toHaveCount(0)
    await expect(again.getByText('Interrupted')).toHaveCount(0)
    // Each word once: the reply was read on from the last recorded event, nothing replayed twice.
    expect((await lastAssistant(again).innerText()).match(/word7\b/g)).toHaveLength(1)

    // The same session reads the job; another browser session is told it does not exist.
    expect(await again.evaluate(async id => (await fetch(`/api/chats/${id}`)).status, jobId)).toBe(200)
    const stranger = await newAppContext(browser, { baseURL: PROXY_APP_URL })
    const strangerPage = await stranger.newPage()
    await openApp(strangerPage)
    expect(await strangerPage.evaluate(async id => (await fetch(`/api/chats/${id}/events`)).status, jobId)).toBe(404)
    expect(await strangerPage.evaluate(async id => (await fetch(`/api/chats/${id}/stop`, { method: 'POST' })).status, jobId)).toBe(404)
    await stranger.close()
  })

  test('Stop in the tab stops the reply on the server', async ({ page }) => {
    await useSlowModel(page)
    // held after word6 until Stop closes the server's connection to the fake
    await sendMessage(page, 'What is 6*7? Then talk until I say so, and I press Stop.')
    await expect(lastAssistant(page)).toContainText('word3', { timeout: 15_000 })
    await page.getByTestId('stop-button').click()
    await waitForIdle(page)
    await expect(lastAssistant(page)).toHaveAttribute('data-status', 'stopped')
    await expect(lastAssistant(page)).not.toContainText('The end.')
  })
})
