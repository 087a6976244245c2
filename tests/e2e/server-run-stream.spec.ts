import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, openApp, openAppWith, openRouterProvider, PROXY_APP_URL, sendMessage, waitForIdle } from './helpers'
import { importChat, longChat } from './support/seed-chat'

// Chats on the server's key run on the server; the tab reads the job's events (fetch + SSE, read in slices that
// yield to the page) into the same recorder. These check what a user sees: a reply that arrives as thousands of
// events at once ends whole, a dropped connection reads on without losing or repeating a word, and start-up finds a
// reply a reload cut off among thousands of stored messages.
test.use({ baseURL: PROXY_APP_URL })
test.setTimeout(120_000)

async function useModel(page: Page, model: string) {
  await openAppWith(page, { provider: openRouterProvider(model) })
}

/** The numbered words (`w1` … `w6000`) of the reply as shown, in order. */
async function numberedWords(page: Page): Promise<number[]> {
  const text = await lastAssistant(page).locator('[data-slot="content"]').innerText()
  return [...text.matchAll(/\bw(\d+)\b/g)].map(match => Number(match[1]))
}

const ALL_WORDS = Array.from({ length: 6000 }, (_, index) => index + 1)

test('a 6,000-word reply run on the server, arriving as thousands of events at once, ends whole with every word once', async ({ page }) => {
  await useModel(page, 'fake/long-reply')
  const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
  await sendMessage(page, 'Write the long reply.')
  expect((await started).status()).toBe(201)
  // The page still takes input while the reply is recorded: the user writes the next message meanwhile.
  const input = page.getByTestId('composer-input')
  await input.pressSequentially('next question')
  await waitForIdle(page)
  await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')
  expect(await numberedWords(page)).toEqual(ALL_WORDS)
  await expect(input).toHaveValue('next question')
  // What is stored is the same whole reply: a reload shows it from IndexedDB, the job no longer followed.
  await page.reload()
  await openApp(page, new URL(page.url()).pathname + new URL(page.url()).search)
  await waitForIdle(page)
  expect(await numberedWords(page)).toEqual(ALL_WORDS)
})

test('a connection cut mid-reply reads on from the last event: nothing lost, nothing twice, no error shown', async ({ page }) => {
  await useModel(page, 'fake/slow-tools')
  const eventStreams: string[] = []
  // The first connection to the job's events is cut after half of them (a proxy or the network dropping it).
  await page.route(/\/api\/chats\/[^/]+\/events/, async (route) => {
    eventStreams.push(new URL(route.request().url()).search)
    if (eventStreams.length > 1) return route.continue()
    const response = await route.fetch()
    const frames = (await response.text()).split('\n\n').filter(frame => frame.startsWith('id:'))
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `${frames.slice(0, Math.floor(frames.length / 2)).join('\n\n')}\n\n` })
  })
  await sendMessage(page, 'What is 6*7? Then talk for a while.')
  await waitForIdle(page)
  await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')
  const text = await lastAssistant(page).innerText()
  for (let word = 1; word <= 54; word++) expect(text.match(new RegExp(`\\bword${word}\\b`, 'g')), `word${word}`).toHaveLength(1)
  expect(text).toContain('The end.')
  await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]')).toHaveAttribute('data-status', 'done')
  await expect(page.getByText('The server lost this reply')).toHaveCount(0)
  // It read again from after the last event it had, not from the start.
  expect(eventStreams).toHaveLength(2)
  expect(Number(new URLSearchParams(eventStreams[1]).get('after'))).toBeGreaterThan(0)
})

test('start-up marks a reply and a tool that a reload cut off, among 2,000 stored messages, and leaves the rest as they were', async ({ page }) => {
  await openApp(page)
  const chat = longChat('e2e-cut-off', 2000)
  const last = chat.messages.at(-1)!
  // The last turn was cut off by closing the page: the tool still running, the answer half written.
  const tool = chat.messages.at(-2)!
  Object.assign(tool, { toolStatus: 'running', toolStatusText: 'working…', content: '', status: 'pending' })
  Object.assign(last, { content: 'Half an ans', status: 'streaming' })
  await importChat(page, chat)
  await openApp(page, `/?thread=${chat.thread.id}`)
  const reply = page.locator(`[data-message-id="${last.id}"]`)
  await expect(reply).toBeVisible({ timeout: 20_000 })
  await expect(reply).toHaveAttribute('data-status', 'interrupted')
  await expect(reply).toContainText('Half an ans')
  await expect(page.locator(`[data-testid="tool-card"]`).last()).toHaveAttribute('data-status', 'cancelled')
  const stored = await page.evaluate(async (ids) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    const read = (id: string) => new Promise<{ status: string, toolStatus?: string, content: string }>((resolve) => {
      const request = db.transaction('messages').objectStore('messages').get(id)
      request.onsuccess = () => resolve(request.result)
    })
    const rows = await Promise.all(ids.map(read))
    const count = await new Promise<number>((resolve) => {
      const request = db.transaction('messages').objectStore('messages').index('status').count('complete')
      request.onsuccess = () => resolve(request.result)
    })
    db.close()
    return { rows, count }
  }, [tool.id, last.id])
  expect(stored.rows[0]).toMatchObject({ toolStatus: 'cancelled', content: 'Cancelled: the page was closed while the tool ran.' })
  expect(stored.rows[1]).toMatchObject({ status: 'interrupted', content: 'Half an ans' })
  // Every other row kept as it was.
  expect(stored.count).toBe(1998)
})
