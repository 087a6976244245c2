import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'

/** A 2000×2000 matrix product: 8 billion multiply-adds, far past the 5 s limit even on a fast, idle machine (1200×1200 once finished in time). */
const HEAVY_EXPRESSION = 'size(ones(2000,2000)*ones(2000,2000))'

function calculateCards(page: Page) {
  return page.locator('[data-testid="tool-card"][data-tool="calculate"]')
}

/** Collects what the browser says about Content-Security-Policy, so a blocked worker cannot go unnoticed. */
function watchCspReports(page: Page): string[] {
  const reports: string[] = []
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) reports.push(message.text())
  })
  return reports
}

test.describe('sandboxed tools', () => {
  test('a calculation that would block for seconds times out, and the page keeps answering while it runs', async ({ page }) => {
    // the calculator's own limit is 15 s, then a second calculation runs
    test.setTimeout(90_000)
    const cspReports = watchCspReports(page)
    await openApp(page)
    // The demo model calls a tool the user names, with the JSON written after it.
    await sendMessage(page, `call calculate {"expression": "${HEAVY_EXPRESSION}"}`)
    const card = calculateCards(page).first()
    await expect(card).toHaveAttribute('data-status', 'running', { timeout: 10_000 })
    // Playwright learns of a new worker a moment after it starts: poll rather than read once.
    await expect.poll(() => page.workers().length).toBe(1)

    // Script and clicks are answered while the calculation runs (on the page's thread both would wait for it,
    // and the card would be done by the time they were answered).
    expect(await page.evaluate(() => document.querySelector('[data-testid="tool-card"][data-tool="calculate"]')?.getAttribute('data-status'))).toBe('running')
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-switch-calculate')).toBeVisible()
    await expect(card).toHaveAttribute('data-status', 'running')
    await page.keyboard.press('Escape')

    await expect(card).toHaveAttribute('data-status', 'error', { timeout: 30_000 })
    await expect(card.getByTestId('tool-summary')).toContainText('tool "calculate" timed out after 15 s')
    // Timed out means stopped: the worker is gone, not left computing in the background.
    await expect.poll(() => page.workers().length).toBe(0)
    await waitForIdle(page)

    // The next call gets a fresh worker.
    await sendMessage(page, 'what is 12*7')
    await expect(calculateCards(page).nth(1)).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await expect(lastAssistant(page)).toContainText('84')
    expect(cspReports).toEqual([])
  })

  test('Stop during a heavy calculation cancels it at once and kills its worker', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, `call calculate {"expression": "${HEAVY_EXPRESSION}"}`)
    const card = calculateCards(page).first()
    await expect(card).toHaveAttribute('data-status', 'running', { timeout: 10_000 })
    await page.getByTestId('stop-button').click()
    await expect(card).toHaveAttribute('data-status', 'cancelled')
    await expect.poll(() => page.workers().length).toBe(0)
    await waitForIdle(page)
  })

  test('one warm worker serves call after call', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'what is 12*7')
    await expect(calculateCards(page).first()).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await waitForIdle(page)
    const [worker] = page.workers()
    expect(worker).toBeDefined()

    await sendMessage(page, 'convert 5 km to mi')
    await expect(calculateCards(page).nth(1)).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await expect(calculateCards(page).nth(1)).toContainText('3.1068559611867 mi')
    expect(page.workers()).toEqual([worker])
  })

  test('an error the calculation throws in the worker reaches the card as the tool\'s own message', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'call calculate {"expression": "2 +* 3"}')
    const card = calculateCards(page).first()
    await expect(card).toHaveAttribute('data-status', 'error', { timeout: 15_000 })
    await expect(card.getByTestId('tool-summary')).toContainText('Cannot evaluate "2 +* 3"')
    await waitForIdle(page)
  })
})
