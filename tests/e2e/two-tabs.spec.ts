import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, openApp, openAppWith, openRouterProvider, PROXY_APP_URL, releaseHeldReply, sendMessage, waitForIdle } from './helpers'
import { storedRows } from './support/stored-rows'
import { seriousViolations } from './support/axe'

const NOTICE = 'A reply is being written in another tab'

function threadPath(page: Page) {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/** The chat as stored: role, status and (for the user's messages) text of every row, in order. */
async function rowsOf(page: Page) {
  return (await storedRows(page)).map(row => `${row.role}:${row.status}${row.role === 'user' ? `:${row.content}` : ''}`)
}

test.describe('one reply per chat at a time, across tabs', () => {
  test('tab 2 cannot send while tab 1 streams, sees the reply live, and sends after it ended; nothing interleaves', async ({ context }) => {
    // Two pages render the demo's long reply (about 210 chunks, 60 ms apart on the server: 12.5 s at best) at once;
    // with other workers rendering beside them it took over 20 s in CI.
    test.setTimeout(120_000)
    const one = await context.newPage()
    await openApp(one)
    await sendMessage(one, 'Hello there')
    await waitForIdle(one)
    const two = await context.newPage()
    await openApp(two, threadPath(one))
    const notice = two.getByTestId('reply-elsewhere')
    await expect(notice).toHaveText('')

    await sendMessage(one, 'Tell me something long')
    await expect(notice).toHaveText(NOTICE)
    await expect(notice).toBeVisible()
    const input = two.getByTestId('composer-input')
    await input.fill('Did that interleave?')
    await expect(two.getByTestId('send-button')).toBeDisabled()
    await input.press('Enter')
    // The reply grows in tab 2 from what tab 1 stores, while tab 1 is still writing it.
    await expect(lastAssistant(two).locator('h2').nth(2)).toBeVisible({ timeout: 15_000 })
    await expect(one.getByTestId('stop-button')).toBeVisible()
    // What tab 2 typed was not sent: two questions stored (the list follows the reply, so they may be out of view).
    expect((await rowsOf(two)).filter(row => row.startsWith('user:'))).toEqual(['user:complete:Hello there', 'user:complete:Tell me something long'])
    expect(await seriousViolations(two)).toEqual([])

    await waitForIdle(one, { timeout: 60_000 })
    await expect(notice).toHaveText('', { timeout: 15_000 })
    // What tab 2 typed was kept, and sends now.
    await expect(input).toHaveValue('Did that interleave?')
    await two.getByTestId('send-button').click()
    await waitForIdle(two)

    await expect.poll(() => rowsOf(two)).toEqual([
      'user:complete:Hello there', 'assistant:complete',
      'user:complete:Tell me something long', 'assistant:complete',
      'user:complete:Did that interleave?', 'assistant:complete',
    ])
    await expect(lastAssistant(one)).toContainText(/scripted demo/i)
  })
})

test.describe('a server-run chat in two tabs', () => {
  test.use({ baseURL: PROXY_APP_URL })

  const QUESTION = 'What is 6*7? Then talk until I say so, in two tabs.'

  test('only the tab that follows it records it; when that tab closes, the other reads on, every word once', async ({ context }) => {
    // A tool step and two page loads: beside two other workers on a loaded machine the test took over 30 s.
    test.setTimeout(60_000)
    const one = await context.newPage()
    await openAppWith(one, { provider: openRouterProvider('fake/slow-tools') })
    // The fake holds the reply after word6 until released: the second tab opens and the first closes mid-reply,
    // however long a page's start takes.
    await sendMessage(one, QUESTION)
    await expect(lastAssistant(one)).toContainText('word2', { timeout: 15_000 })
    const two = await context.newPage()
    await openApp(two, threadPath(one))
    // the second tab learns from the Web Locks it queries that the first is recording: seconds under load
    await expect(two.getByTestId('reply-elsewhere')).toHaveText(NOTICE, { timeout: 15_000 })
    // word6 ends what the fake sends before it holds the reply.
    await expect(lastAssistant(two)).toContainText('word6', { timeout: 15_000 })
    await expect(lastAssistant(two)).not.toContainText('The end.')
    await one.close()

    await expect(two.getByTestId('reply-elsewhere')).toHaveText('')
    await releaseHeldReply(QUESTION)
    await waitForIdle(two)
    const reply = lastAssistant(two)
    await expect(reply).toContainText('word54 The end.')
    expect((await reply.innerText()).match(/word7\b/g)).toHaveLength(1)
    await expect(two.locator('[data-testid="tool-card"][data-tool="calculate"]')).toHaveCount(1)
    await expect.poll(() => rowsOf(two)).toEqual([`user:complete:${QUESTION}`, 'assistant:complete', 'tool:complete', 'assistant:complete'])
  })
})
