import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, openApp, savedSettings, sendMessage, waitForIdle } from './helpers'
import { seriousViolations } from './support/axe'

/** Tool rows of this tool in the open chat, read from IndexedDB (the app's own database). */
async function toolRowCount(page: Page, toolName: string): Promise<number> {
  return page.evaluate(name => new Promise<number>((resolve, reject) => {
    const open = indexedDB.open('plugboard')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const db = open.result
      const request = db.transaction('messages').objectStore('messages').getAll()
      request.onsuccess = () => {
        const threadId = decodeURIComponent(location.pathname.split('/').pop() ?? '') || new URLSearchParams(location.search).get('thread')
        const rows = request.result as Array<{ role: string, toolName?: string, threadId: string }>
        const threads = new Set(rows.map(row => row.threadId))
        const inChat = threads.size === 1 ? rows : rows.filter(row => row.threadId === threadId)
        resolve(inChat.filter(row => row.role === 'tool' && row.toolName === name).length)
        db.close()
      }
      request.onerror = () => reject(request.error)
    }
  }), toolName)
}

async function openToolPopover(page: Page) {
  await page.getByTestId('tool-popover-trigger').click()
  await expect(page.getByTestId('tool-switch-calculate')).toBeVisible()
}

/** Registers a test-only tool through the console API the app exposes to plugin authors. */
async function registerTestTool(page: Page, kind: 'slow' | 'failing') {
  await page.evaluate((kind) => {
    const api = (window as any).plugboard
    if (kind === 'slow') {
      api.registerTool(
        { type: 'function', function: { name: 'slow_tool', description: 'Waits a long time', parameters: { type: 'object', properties: {} } }, timeoutMs: 60_000 },
        (_args: unknown, context: { signal: AbortSignal, status: (text: string) => void }) => new Promise((resolve, reject) => {
          context.status('Waiting for the slow thing…')
          const timer = setTimeout(() => resolve('finally done'), 30_000)
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer)
            ;(window as any).__slowToolAborted = true
            reject(new Error('aborted'))
          })
        }),
      )
    }
    else {
      api.registerTool(
        { type: 'function', function: { name: 'failing_tool', description: 'Always fails', parameters: { type: 'object', properties: {} } } },
        () => { throw new Error('The failing tool broke on purpose') },
      )
    }
  }, kind)
}

test.describe('tools', () => {
  test('the demo model calls calculate: the card runs, the answer uses it, and both survive a reload', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'what is 12*7')
    const card = page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()
    await expect(card).toBeVisible({ timeout: 10_000 })
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await expect(lastAssistant(page)).toContainText('84')
    await waitForIdle(page)

    await page.reload()
    await openApp(page, page.url())
    const restored = page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()
    await expect(restored).toHaveAttribute('data-status', 'done')
    await expect(lastAssistant(page)).toContainText('84')
    // View details shows the arguments and the full output.
    await restored.getByRole('button', { name: /details/i }).click()
    await expect(restored).toContainText('12*7')
  })

  test('a tool switched off stays off after a reload, and the model is not offered it', async ({ page }) => {
    await openApp(page)
    await openToolPopover(page)
    const toolSwitch = page.getByTestId('tool-switch-calculate')
    await expect(toolSwitch).toHaveAttribute('aria-checked', 'true')
    const stored = await savedSettings(page, 'tool')
    await toolSwitch.click()
    await expect(toolSwitch).toHaveAttribute('aria-checked', 'false')
    await page.keyboard.press('Escape')
    // the choice is written debounced: reload once it is saved
    await expect.poll(() => savedSettings(page, 'tool')).not.toEqual(stored)

    await page.reload()
    await openApp(page)
    await openToolPopover(page)
    await expect(page.getByTestId('tool-switch-calculate')).toHaveAttribute('aria-checked', 'false')
    await page.keyboard.press('Escape')

    await sendMessage(page, 'what is 12*7')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]')).toHaveCount(0)
    await expect(lastAssistant(page)).toContainText(/switched off|not enabled|disabled/i)
  })

  test('a toggle in one tab shows in another', async ({ page, context }) => {
    await openApp(page)
    const other = await context.newPage()
    await openApp(other)
    await openToolPopover(page)
    await page.getByTestId('tool-switch-get_current_time').click()
    await openToolPopover(other)
    await expect(other.getByTestId('tool-switch-get_current_time')).toHaveAttribute('aria-checked', 'false', { timeout: 5_000 })
  })

  test('Stop during a slow tool cancels it and the card says cancelled', async ({ page }) => {
    await openApp(page)
    await registerTestTool(page, 'slow')
    await sendMessage(page, 'call slow_tool')
    const card = page.locator('[data-testid="tool-card"][data-tool="slow_tool"]').first()
    await expect(card).toHaveAttribute('data-status', 'running', { timeout: 10_000 })
    await expect(card).toContainText('Waiting for the slow thing')
    await page.getByTestId('stop-button').click()
    await expect(card).toHaveAttribute('data-status', 'cancelled')
    await waitForIdle(page)
    expect(await page.evaluate(() => (window as any).__slowToolAborted)).toBe(true)
    // The conversation goes on.
    await sendMessage(page, 'Hello again')
    await expect(lastAssistant(page)).toContainText(/scripted demo/i, { timeout: 15_000 })
  })

  test('a failing tool gives a failed card with the error, and the model still answers', async ({ page }) => {
    await openApp(page)
    await registerTestTool(page, 'failing')
    await sendMessage(page, 'call failing_tool')
    const card = page.locator('[data-testid="tool-card"][data-tool="failing_tool"]').first()
    await expect(card).toHaveAttribute('data-status', 'error', { timeout: 10_000 })
    await expect(card).toContainText('The failing tool broke on purpose')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText(/fail/i)
    // The popover marks the tool whose last run failed.
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByText(/last run failed/i).first()).toBeAttached()
  })

  test('search_chat_history finds an earlier chat once there is one', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'My cat is called Pebbles')
    await waitForIdle(page)
    await page.getByTestId('new-thread').click()
    await expect(page.getByTestId('message')).toHaveCount(0)
    await sendMessage(page, 'search my chats for Pebbles')
    const card = page.locator('[data-testid="tool-card"][data-tool="search_chat_history"]').first()
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 10_000 })
    await waitForIdle(page)
    await expect(card).toContainText('Pebbles')
  })

  test('a model that never stops calling tools is stopped at the step cap, and Continue lets it go on', async ({ page }) => {
    test.setTimeout(60_000)
    await openApp(page)
    await sendMessage(page, 'keep counting')
    await waitForIdle(page)
    const notice = page.getByTestId('loop-notice').last()
    await expect(notice).toContainText(/10 steps/)
    // The message list is virtual: count the cards from the chat's rows, not the DOM (cards scrolled away unmount).
    await expect.poll(() => toolRowCount(page, 'calculate')).toBe(10)
    await page.getByTestId('continue-button').click()
    await expect.poll(() => toolRowCount(page, 'calculate'), { timeout: 30_000 }).toBe(20)
    await waitForIdle(page)
    // The counting went on from where it stopped: the last call added 1 to 19.
    await page.locator('[data-testid="tool-card"][data-tool="calculate"]').last().getByRole('button', { name: /details/i }).click()
    await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').last()).toContainText('19 + 1')
  })

  test('the same call three times in a row is not run again, and the user is told', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'repeat yourself')
    await waitForIdle(page)
    const cards = page.locator('[data-testid="tool-card"][data-tool="calculate"]')
    await expect(cards).toHaveCount(3)
    await expect(cards.nth(0)).toHaveAttribute('data-status', 'done')
    await expect(cards.nth(1)).toHaveAttribute('data-status', 'done')
    await expect(cards.nth(2)).toHaveAttribute('data-status', 'skipped')
    await expect(page.getByTestId('loop-notice').last()).toContainText(/same arguments|repeat/i)
  })

  test('the tool popover has no serious accessibility violations', async ({ page }) => {
    await openApp(page)
    await openToolPopover(page)
    expect(await seriousViolations(page)).toEqual([])
  })
})
