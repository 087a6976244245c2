import { expect, test } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'
import { storedRows } from './support/stored-rows'

test.describe('chatting with the offline demo model', () => {
  test('a fresh install opens on the demo model and answers, with nothing blocked by the CSP', async ({ page }) => {
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    await openApp(page)
    await expect(page.getByText(/demo/i).first()).toBeVisible()
    await sendMessage(page, 'Hello there')
    await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('Hello there')
    await expect(lastAssistant(page)).toContainText(/scripted demo/i, { timeout: 15_000 })
    await waitForIdle(page)
    // The thread appears in the list, titled from the first message.
    await expect(page.getByTestId('thread-item').filter({ hasText: 'Hello there' })).toBeVisible()
    expect(violations).toEqual([])
  })

  test('Stop keeps the partial reply, and a reload finds the thread and the partial reply', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'Write something long please')
    const reply = lastAssistant(page)
    await expect(reply).toContainText(/\w+/, { timeout: 10_000 })
    await expect(page.getByTestId('stop-button')).toBeVisible()
    // Let some text arrive, then stop mid-stream.
    await expect.poll(async () => (await reply.innerText()).length, { timeout: 10_000 }).toBeGreaterThan(40)
    await page.getByTestId('stop-button').click()
    await waitForIdle(page)
    await expect(reply).toContainText(/stopped/i)
    const partial = (await reply.innerText()).length
    expect(partial).toBeGreaterThan(20)

    await page.reload()
    await openApp(page, page.url())
    const restored = lastAssistant(page)
    await expect(restored).toContainText(/stopped/i)
    expect((await restored.innerText()).length).toBeGreaterThan(20)
    await expect(page.getByTestId('thread-item').filter({ hasText: 'Write something long' })).toBeVisible()
  })

  test('a reload mid-stream shows the partial reply marked interrupted', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'Tell me something long')
    await expect(page.getByTestId('stop-button')).toBeVisible()
    // Reload once part of the reply is stored.
    await expect.poll(async () => (await storedRows(page)).findLast(row => row.role === 'assistant')?.content.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0)
    await page.reload()
    await openApp(page, page.url())
    const restored = lastAssistant(page)
    await expect(restored).toContainText(/interrupted/i)
    await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('Tell me something long')
  })

  test('Enter sends, Shift+Enter writes a new line', async ({ page }) => {
    await openApp(page)
    const input = page.getByTestId('composer-input')
    await input.fill('line one')
    await input.press('Shift+Enter')
    await input.pressSequentially('line two')
    await expect(input).toHaveValue('line one\nline two')
    await input.press('Enter')
    await expect(input).toHaveValue('')
    await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('line two')
  })

  test('an error mid-stream shows inline with Retry, and the partial reply is kept', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'please simulate an error')
    const reply = lastAssistant(page)
    await expect(reply.getByRole('button', { name: /retry/i })).toBeVisible({ timeout: 15_000 })
    await expect(reply).toContainText(/simulated provider error/i)
  })

  test('threads can be renamed, filtered and deleted', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'First thread message')
    await waitForIdle(page)
    await page.getByTestId('new-thread').click()
    await expect(page.getByTestId('message')).toHaveCount(0)
    await sendMessage(page, 'Second thread message')
    await waitForIdle(page)
    await page.getByTestId('thread-filter').fill('First')
    await expect(page.getByTestId('thread-item')).toHaveCount(1)
    await page.getByTestId('thread-filter').fill('')
    await expect(page.getByTestId('thread-item')).toHaveCount(2)
  })

  test('a message sent in one tab shows in another', async ({ page, context }) => {
    await openApp(page)
    const other = await context.newPage()
    await openApp(other)
    await sendMessage(page, 'Hello from the first tab')
    await waitForIdle(page)
    await expect(other.getByTestId('thread-item').filter({ hasText: 'Hello from the first tab' })).toBeVisible()
    await other.getByTestId('thread-item').filter({ hasText: 'Hello from the first tab' }).click()
    await expect(lastAssistant(other)).toContainText(/scripted demo/i)
  })

  test('works at phone width', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    await openApp(page)
    await sendMessage(page, 'Hello from a phone')
    await expect(lastAssistant(page)).toContainText(/scripted demo/i, { timeout: 15_000 })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })
})
