import type { Page } from '@playwright/test'
import { expect, test } from './support/own-upstream'
import { storedRows } from './support/stored-rows'
import { demoLongReply } from '../../server/utils/demo-model/demo-replies'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'
import { seriousViolations } from './support/axe'

// The demo model's long reply (about 210 chunks 60 ms apart on the server: 12.5 s at best) streams twice in a test;
// beside other workers a whole one took over 20 s.
test.describe.configure({ timeout: 120_000 })
/** Waiting for the demo's long reply to end. */
const LONG_REPLY = { timeout: 60_000 }

/** The chat holds the question and one reply, the demo model's long reply whole: nothing lost, nothing repeated. */
async function expectWholeLongReply(page: Page, question: string) {
  await expect(lastAssistant(page)).toContainText('That is the end of the long reply.', LONG_REPLY)
  expect((await storedRows(page)).map(({ role, status, content }) => ({ role, status, content }))).toEqual([
    { role: 'user', status: 'complete', content: question },
    { role: 'assistant', status: 'complete', content: demoLongReply() },
  ])
}

test.describe('Continue a cut reply', () => {
  test('after a reload mid-reply: marked interrupted with Continue and Retry, and Continue (keyboard) appends the rest to the same reply', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'Tell me something long')
    await expect(lastAssistant(page).locator('h2').nth(1)).toBeVisible({ timeout: 15_000 })
    await expect(page.getByTestId('stop-button')).toBeVisible()
    await page.reload()
    await openApp(page, page.url())

    const cut = lastAssistant(page)
    await expect(cut).toHaveAttribute('data-status', 'interrupted')
    await expect(cut).toContainText(/interrupted/i)
    await expect(cut.locator('h2').first()).toHaveText('Part 1')
    await expect(cut).not.toContainText('That is the end of the long reply.')
    await expect(cut.getByTestId('retry-reply-button')).toBeVisible()
    const continueButton = cut.getByTestId('continue-reply-button')
    expect(await seriousViolations(page)).toEqual([])

    await continueButton.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('stop-button')).toBeVisible()
    await waitForIdle(page, LONG_REPLY)
    await expectWholeLongReply(page, 'Tell me something long')
    await expect(page.getByTestId('cut-reply-actions')).toHaveCount(0)
  })

  test('after Stop: the stopped text stays and the rest is written into the same reply', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'Write something long please')
    await expect(lastAssistant(page).locator('h2').nth(1)).toBeVisible({ timeout: 15_000 })
    await page.getByTestId('stop-button').click()
    await waitForIdle(page)
    const cut = lastAssistant(page)
    await expect(cut).toHaveAttribute('data-status', 'stopped')
    await expect(cut).not.toContainText('That is the end of the long reply.')

    await cut.getByTestId('continue-reply-button').click()
    await expect(page.getByTestId('stop-button')).toBeVisible()
    await waitForIdle(page, LONG_REPLY)
    await expectWholeLongReply(page, 'Write something long please')
  })

  test('Retry on a cut reply answers the question again from the start', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'Tell me something long')
    await expect(lastAssistant(page).locator('h2').nth(1)).toBeVisible({ timeout: 15_000 })
    await page.getByTestId('stop-button').click()
    await waitForIdle(page)
    await lastAssistant(page).getByTestId('retry-reply-button').click()
    // the new reply has begun (the long one streams for 12 s at least): an idle page before it is not the one awaited
    await expect(page.getByTestId('stop-button')).toBeVisible()
    await waitForIdle(page, LONG_REPLY)
    await expectWholeLongReply(page, 'Tell me something long')
  })
})

test.describe('Continue on OpenRouter (the fake upstream)', () => {
  test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

  test('the request holds the partial reply and the instruction, and the reply ends whole with each word once', async ({ page, upstream }) => {
    // In the tab (not on the server), so the reload cuts the reply. The fake holds the reply after word6 until the
    // connection closes: the reload comes while it streams, however long the steps before take.
    await openAppWith(page, { provider: openRouterProvider('fake/slow-tools'), runOnServer: false })
    await sendMessage(page, 'What is 6*7? Then talk until I say so.')
    await expect(lastAssistant(page)).toContainText('word6', { timeout: 15_000 })
    // Cut once the reply is stored past word3 (the tab writes what streams in at its own pace, behind the screen).
    await expect.poll(async () => (await storedRows(page)).findLast(row => row.role === 'assistant')?.content ?? '', { timeout: 15_000 }).toMatch(/word3\b/)
    await expect(lastAssistant(page)).not.toContainText('The end.')
    await page.reload()
    await openApp(page, page.url())
    const cut = lastAssistant(page)
    await expect(cut).toHaveAttribute('data-status', 'interrupted')
    const shownWhenCut = await cut.innerText()

    await upstream.clear()
    await cut.getByTestId('continue-reply-button').click()
    await waitForIdle(page)
    const reply = lastAssistant(page)
    await expect(reply).toContainText('word54 The end.')
    await expect(reply).toHaveAttribute('data-status', 'complete')
    expect((await reply.innerText()).match(/word7\b/g)).toHaveLength(1)
    expect((await reply.innerText()).match(/The tool returned 42\./g)).toHaveLength(1)

    const requests = await upstream.requests()
    expect(requests).toHaveLength(1)
    const messages = requests[0]!.body.messages as Array<{ role: string, content: string | null }>
    const partial = messages.at(-2)!
    expect(partial.role).toBe('assistant')
    expect(partial.content).toMatch(/^The tool returned 42\. word1 word2 word3/)
    // What the model was sent is exactly what the user saw kept.
    expect(shownWhenCut).toContain(partial.content!.trim())
    expect(messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/cut off/) })
  })

  test('a chat the server runs, stopped mid-answer, continues on the server into the same reply', async ({ page, upstream }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/slow-tools') })
    const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
    // Held after word6 until Stop closes the connection (see above).
    await sendMessage(page, 'What is 6*7? Then talk until I say so.')
    await started
    await expect(lastAssistant(page)).toContainText('word3', { timeout: 15_000 })
    await page.getByTestId('stop-button').click()
    await waitForIdle(page)
    const cut = lastAssistant(page)
    await expect(cut).toHaveAttribute('data-status', 'stopped')
    await expect(cut).not.toContainText('The end.')

    await upstream.clear()
    const continued = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
    await cut.getByTestId('continue-reply-button').click()
    expect((await continued).ok()).toBe(true)
    await waitForIdle(page)
    const reply = lastAssistant(page)
    await expect(reply).toContainText('word54 The end.')
    expect((await reply.innerText()).match(/word2\b/g)).toHaveLength(1)
    const rows = await storedRows(page)
    expect(rows.map(row => `${row.role}:${row.status}`)).toEqual(['user:complete', 'assistant:complete', 'tool:complete', 'assistant:complete'])
    const messages = (await upstream.requests())[0]!.body.messages as Array<{ role: string, content: string | null }>
    expect(messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/cut off/) })
  })
})
