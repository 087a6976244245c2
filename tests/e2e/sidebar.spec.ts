import type { Page } from '@playwright/test'
import { expect, test } from './support/own-upstream'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'
import { importChat, longChat, type SeededChat } from './support/seed-chat'
import { seriousViolations } from './support/axe'

// Seeding and paging through a long chat takes a while on a shared 2-core machine.
test.setTimeout(120_000)

const list = (page: Page) => page.getByTestId('message-list')
const row = (page: Page, threadId: string) => page.locator(`[data-testid="thread-item"][data-thread-id="${threadId}"]`)

/** A short stored chat whose last activity is `updatedAt`. */
function smallChat(id: string, title: string, updatedAt: number, text = 'Hello there'): SeededChat {
  return {
    thread: { id, title, createdAt: updatedAt, updatedAt, activeLeafId: `${id}-m2` },
    messages: [
      { id: `${id}-m1`, threadId: id, seq: 1, onPath: 1, role: 'user', content: text, status: 'complete', createdAt: updatedAt, updatedAt },
      { id: `${id}-m2`, threadId: id, seq: 2, parentId: `${id}-m1`, onPath: 1, role: 'assistant', content: 'Hi!', status: 'complete', createdAt: updatedAt, updatedAt },
    ],
  }
}

/** A long chat whose assistant rows carry usage, as replies of a real model store it. */
function longChatWithUsage(id: string, count: number): SeededChat {
  const chat = longChat(id, count)
  chat.messages = chat.messages.map(message => (message.role === 'assistant'
    ? { ...message, model: 'fake/priced', usage: { promptTokens: 1_000 + message.seq, completionTokens: 20, totalTokens: 1_020 + message.seq, cost: 0.0001 } }
    : message))
  return chat
}

test.describe('the sidebar', () => {
  test('search finds "Tokyo" in a message (not the title) and opens the chat at that message, shown and marked', async ({ page }) => {
    const chat = longChat('e2e-search-long', 400)
    // An early question, hundreds of rows above the newest: it is not among the rows a chat opens with.
    const target = chat.messages[8]!
    target.content = 'By the way, what time is it in Tokyo when it is noon in Lisbon?'
    await openApp(page)
    await importChat(page, chat)
    await importChat(page, smallChat('e2e-search-other', 'Other chat', Date.now()))
    await openApp(page, '/?thread=e2e-search-other')

    const filter = page.getByTestId('thread-filter')
    await filter.fill('Tokyo')
    const result = page.getByTestId('message-result')
    await expect(result).toHaveCount(1, { timeout: 20_000 })
    await expect(result).toContainText('Long chat (400 messages)')
    await expect(result.locator('mark')).toHaveText('Tokyo')

    // keyboard: down to the result, Enter opens it
    await filter.press('ArrowDown')
    await filter.press('Enter')
    await expect(page).toHaveURL(/thread=e2e-search-long/)
    const message = list(page).locator(`[data-message-id="${target.id}"]`)
    await expect(message).toBeInViewport({ timeout: 30_000 })
    await expect(page.locator(`[data-turn-id="${target.id}"]`)).toHaveAttribute('data-search-mark', 'true')
    await expect(message).toContainText('what time is it in Tokyo')

    // Escape clears the search and the chat list is back
    await filter.press('Escape')
    await expect(filter).toHaveValue('')
    await expect(page.getByTestId('message-result')).toHaveCount(0)
  })

  test('a pinned chat moves to Pinned and stays there after a reload; the list is grouped by date', async ({ page }) => {
    await openApp(page)
    const now = await page.evaluate(() => Date.now())
    const yesterdayNoon = await page.evaluate(() => {
      const today = new Date()
      return new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1, 12).getTime()
    })
    await importChat(page, smallChat('e2e-today', 'Chat of today', now))
    await importChat(page, smallChat('e2e-yesterday', 'Chat of yesterday', yesterdayNoon))
    await importChat(page, smallChat('e2e-old', 'Chat of March 2025', new Date(2025, 2, 10, 12).getTime()))
    await openApp(page)

    const headings = page.getByTestId('thread-group-heading')
    await expect(headings).toHaveText(['Today', 'Yesterday', 'March 2025'])

    await row(page, 'e2e-old').hover()
    await row(page, 'e2e-old').getByTestId('thread-pin').click()
    await expect(headings).toHaveText(['Pinned', 'Today', 'Yesterday'])
    await expect(page.locator('[data-testid="thread-group"][data-group="pinned"] [data-testid="thread-item"]')).toHaveAttribute('data-thread-id', 'e2e-old')

    await openApp(page)
    await expect(page.locator('[data-testid="thread-group"][data-group="pinned"] [data-testid="thread-item"]')).toHaveAttribute('data-thread-id', 'e2e-old')
    await row(page, 'e2e-old').hover()
    await expect(row(page, 'e2e-old').getByTestId('thread-pin')).toHaveAccessibleName('Unpin “Chat of March 2025”')
    await row(page, 'e2e-old').getByTestId('thread-pin').click()
    await expect(headings).toHaveText(['Today', 'Yesterday', 'March 2025'])
  })

  test('a message being written stays with its chat when the user switches chats, the new-chat screen\'s too', async ({ page }) => {
    await openApp(page)
    const now = await page.evaluate(() => Date.now())
    await importChat(page, smallChat('e2e-draft-a', 'Chat A', now))
    await importChat(page, smallChat('e2e-draft-b', 'Chat B', now - 1000))
    await openApp(page)
    const input = page.getByTestId('composer-input')
    const open = async (threadId: string) => {
      await row(page, threadId).getByRole('button').first().click()
      await expect(page).toHaveURL(new RegExp(`thread=${threadId}`))
    }

    await input.fill('Half a thought for the new chat')
    await open('e2e-draft-a')
    await expect(input).toHaveValue('')
    await input.fill('A question for A, not sent yet')
    await open('e2e-draft-b')
    await expect(input).toHaveValue('')
    await input.fill('And one for B')
    await open('e2e-draft-a')
    await expect(input).toHaveValue('A question for A, not sent yet')
    await open('e2e-draft-b')
    await expect(input).toHaveValue('And one for B')
    await page.getByTestId('new-thread').click()
    await expect(input).toHaveValue('Half a thought for the new chat')

    // Sent from the new-chat screen, the message goes with the chat it makes, and no draft is left behind.
    await sendMessage(page, 'Half a thought for the new chat, finished')
    await waitForIdle(page)
    await expect(input).toHaveValue('')
    await page.getByTestId('new-thread').click()
    await expect(input).toHaveValue('')
    await open('e2e-draft-a')
    await expect(input).toHaveValue('A question for A, not sent yet')
  })

  test('the sidebar with groups and search results has no serious axe violations, in light and dark mode', async ({ page }) => {
    await openApp(page)
    await importChat(page, smallChat('e2e-axe-1', 'Pinned one', Date.now(), 'Flights to Tokyo'))
    await importChat(page, smallChat('e2e-axe-2', 'Older one', Date.now() - 40 * 86_400_000))
    await openApp(page)
    await row(page, 'e2e-axe-1').hover()
    await row(page, 'e2e-axe-1').getByTestId('thread-pin').click()
    await expect(page.getByTestId('thread-group-heading').first()).toHaveText('Pinned')
    const sidebar = 'nav[aria-label="Conversations"]'
    expect(await seriousViolations(page, { include: sidebar })).toEqual([])
    await page.getByTestId('thread-filter').fill('tokyo')
    await expect(page.getByTestId('message-result')).toHaveCount(1, { timeout: 20_000 })
    expect(await seriousViolations(page, { include: sidebar })).toEqual([])
    await page.getByTestId('color-mode').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(await seriousViolations(page, { include: sidebar })).toEqual([])
    await page.getByTestId('thread-filter').fill('')
    expect(await seriousViolations(page, { include: sidebar })).toEqual([])
  })
})

test.describe('titles on the demo', () => {
  test('the demo keeps the title cut from the question, and asks no model for one', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'what is 12*7')
    await waitForIdle(page)
    await expect(page.getByTestId('thread-item').first()).toContainText('what is 12*7')
    const stored = await page.evaluate(() => new Promise<Record<string, unknown>>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => {
        const read = request.result.transaction('threads').objectStore('threads').getAll()
        read.onsuccess = () => resolve(read.result[0])
        read.onerror = () => reject(read.error)
      }
      request.onerror = () => reject(request.error)
    }))
    expect(stored.titleRequested).toBeUndefined()
  })
})

test.describe('usage of a chat', () => {
  test('the token figure counts the whole chat, the same before and after scrolling up, and opens a breakdown', async ({ page }) => {
    const chat = longChatWithUsage('e2e-usage-long', 800)
    const expected = chat.messages.reduce((sum, message) => sum + (message.usage?.totalTokens ?? 0), 0)
    await openApp(page)
    await importChat(page, chat)
    await openApp(page, `/?thread=${chat.thread.id}`)
    await expect(page.locator(`[data-message-id="${chat.messages.at(-1)!.id}"]`)).toBeVisible({ timeout: 20_000 })

    const tokens = page.getByTestId('chat-cost-tokens')
    const figure = `${expected.toLocaleString('en-US')} tokens`
    await expect(tokens).toContainText(figure)

    // scroll to the top: every page of older rows is read, and the figure does not move
    const first = page.locator(`[data-message-id="${chat.messages[0]!.id}"]`)
    await expect.poll(async () => {
      await list(page).evaluate((element) => { element.scrollTop = 0 })
      return first.isVisible()
    }, { timeout: 90_000, intervals: [300] }).toBe(true)
    await expect(tokens).toContainText(figure)

    await page.getByTestId('chat-cost').click()
    const breakdown = page.getByTestId('usage-breakdown')
    await expect(breakdown).toBeVisible()
    await expect(breakdown.getByTestId('usage-total-tokens')).toHaveText(expected.toLocaleString('en-US'))
    await expect(breakdown.getByTestId('usage-models')).toContainText('fake/priced')
    await expect(breakdown.getByTestId('usage-tools')).toContainText('calculate')
    await expect(breakdown.getByTestId('usage-tools')).toContainText(String(800 / 4))
    await expect(breakdown.getByTestId('usage-reply')).toHaveCount(50)
  })
})

test.describe('titles from the model', () => {
  test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

  test('a real model names the chat after its first reply, in a bounded request on the same key, and the reply is not touched', async ({ page, upstream }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/titled') })
    await sendMessage(page, 'What time is it in Tokyo right now?')
    await waitForIdle(page)
    const reply = await lastAssistant(page).innerText()
    expect(reply.trim()).not.toBe('')

    const item = page.getByTestId('thread-item').first()
    await expect(item).toContainText('Fake Upstream Named This Chat', { timeout: 20_000 })
    const requests = (await upstream.titleRequests()).filter(request => request.body.model === 'fake/titled')
    expect(requests).toHaveLength(1)
    const [request] = requests
    expect(request!.headers.authorization).toBe('Bearer sk-or-test-server-key')
    expect(request!.body.max_tokens).toBe(24)
    expect(request!.body.tools).toBeUndefined()
    expect(JSON.stringify(request!.body.messages)).toContain('What time is it in Tokyo right now?')
    // the reply shown is the stream's, untouched by the title request
    await expect(lastAssistant(page)).toHaveText(reply)
    expect(reply).not.toContain('Fake Upstream Named This Chat')

    // a second reply asks for no second title
    await sendMessage(page, 'And in Lisbon?')
    await waitForIdle(page)
    expect((await upstream.titleRequests()).filter(request => request.body.model === 'fake/titled')).toHaveLength(1)
  })
})
