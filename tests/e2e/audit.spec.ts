import { readFile } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import { expect, test, type Download, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { openApp, openAppWith, openRouterProvider, PROXY_APP_URL, sendMessage, waitForIdle } from './helpers'

// two chats with a tool run each before the audit page is even opened: long on a busy machine
test.describe.configure({ timeout: 90_000 })

/** A tool that always fails, registered through the console API plugin authors use. */
async function registerFailingTool(page: Page) {
  await page.evaluate(() => {
    (window as any).plugboard.registerTool(
      { type: 'function', function: { name: 'failing_tool', description: 'Always fails', parameters: { type: 'object', properties: {} } } },
      () => { throw new Error('The failing tool broke on purpose') },
    )
  })
}

/** Two chats: calculate runs in the first, failing_tool fails in the second (whose title a spreadsheet would run). */
async function runTwoTools(page: Page) {
  await openApp(page)
  await registerFailingTool(page)
  await sendMessage(page, 'what is 12*7')
  await waitForIdle(page)
  await page.getByTestId('new-thread').click()
  await expect(page.getByTestId('message')).toHaveCount(0)
  await sendMessage(page, '=SUM(1,2) call failing_tool')
  await waitForIdle(page)
  await expect(page.locator('[data-testid="tool-card"][data-tool="failing_tool"]')).toHaveAttribute('data-status', 'error')
}

async function openAudit(page: Page) {
  await page.getByTestId('audit-link').click()
  await expect(page).toHaveURL(/\/audit$/)
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible()
}

const rows = (page: Page) => page.getByTestId('audit-row')

async function downloadedText(page: Page, button: string): Promise<{ name: string, text: string }> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), page.getByTestId(button).click()])
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') }
}

/** The export read by an independent RFC 4180 reader (csv-parse), one object per run keyed by the header row. */
function parseCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true, bom: true }) as Record<string, string>[]
}

/** Writes runs straight into IndexedDB, as earlier sessions would have left them. */
function seedRuns(page: Page, runs: Array<Record<string, unknown>>) {
  return page.evaluate(runs => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('plugboard')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const db = open.result
      const transaction = db.transaction('audit', 'readwrite')
      for (const run of runs) transaction.objectStore('audit').put(run)
      transaction.oncomplete = () => { db.close(); resolve() }
      transaction.onerror = () => reject(transaction.error)
    }
  }), runs)
}

test.describe('audit log', () => {
  test('lists every tool run newest first, filters by tool, status and date, and shows a run\'s details', async ({ page }) => {
    await runTwoTools(page)
    await openAudit(page)
    await expect(rows(page)).toHaveCount(2)
    await expect(rows(page).nth(0)).toHaveAttribute('data-tool', 'failing_tool')
    await expect(rows(page).nth(0)).toHaveAttribute('data-status', 'error')
    await expect(rows(page).nth(1)).toHaveAttribute('data-tool', 'calculate')
    await expect(rows(page).nth(1)).toHaveAttribute('data-status', 'done')
    await expect(page.getByTestId('audit-count')).toHaveText('2 runs')

    await page.getByTestId('audit-filter-tool').selectOption('calculate')
    await expect(rows(page)).toHaveCount(1)
    await expect(rows(page).first()).toHaveAttribute('data-tool', 'calculate')
    await page.getByTestId('audit-filter-status').selectOption('error')
    await expect(rows(page)).toHaveCount(0)
    await expect(page.getByTestId('audit-empty')).toHaveText('No run matches these filters.')
    await page.getByTestId('audit-filter-tool').selectOption('')
    await expect(rows(page)).toHaveCount(1)
    await expect(rows(page).first()).toHaveAttribute('data-tool', 'failing_tool')
    await page.getByTestId('audit-filter-clear').click()
    await expect(rows(page)).toHaveCount(2)

    const day = (offset: number) => page.evaluate((offset) => {
      const date = new Date()
      date.setDate(date.getDate() + offset)
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
    }, offset)
    await page.getByTestId('audit-filter-from').fill(await day(1))
    await expect(rows(page)).toHaveCount(0)
    await page.getByTestId('audit-filter-from').fill(await day(0))
    await page.getByTestId('audit-filter-to').fill(await day(0))
    await expect(rows(page)).toHaveCount(2)
    await page.getByTestId('audit-filter-to').fill(await day(-1))
    await expect(rows(page)).toHaveCount(0)
    await page.getByTestId('audit-filter-clear').click()

    // details: arguments as asked and as run, result size, timing, and a link back to the chat
    await rows(page).nth(1).getByTestId('audit-row-details').click()
    const details = page.getByTestId('audit-run-details')
    // right under the row it belongs to, and on screen
    await expect(rows(page).nth(1).locator('xpath=following-sibling::tr[1]')).toHaveAttribute('data-testid', 'audit-details-row')
    await expect(details).toBeInViewport()
    await expect(details.getByTestId('audit-run-arguments-asked')).toContainText('12*7')
    await expect(details.getByTestId('audit-run-arguments-run')).toContainText('12*7')
    await expect(details.getByTestId('audit-run-size')).toContainText(/\d+ bytes/)
    await expect(details).toContainText(/\d+ ms/)
    // every run has a decision now: calculate's policy is 'auto', so it ran without asking
    await expect(details).toContainText(/Approval\s*auto, /)
    await details.getByTestId('audit-run-chat-link').click()
    await expect(page).toHaveURL(/\?thread=/)
    await expect(page.locator('[data-testid="message"][data-role="user"]').first()).toContainText('what is 12*7')
  })

  test('exports the log as JSON and as CSV, with formula-safe cells', async ({ page }) => {
    await runTwoTools(page)
    await openAudit(page)
    await expect(rows(page)).toHaveCount(2)

    const json = await downloadedText(page, 'audit-export-json')
    expect(json.name).toMatch(/^plugboard-audit-.+\.json$/)
    const entries = JSON.parse(json.text) as Array<Record<string, unknown>>
    expect(entries.map(entry => [entry.toolName, entry.status])).toEqual([['failing_tool', 'error'], ['calculate', 'done']])
    expect(JSON.parse(entries[1]!.argumentsAsked as string)).toEqual({ expression: '12*7' })
    expect(entries[0]!.error).toContain('The failing tool broke on purpose')
    expect(typeof entries[1]!.durationMs).toBe('number')
    expect(typeof entries[1]!.resultBytes).toBe('number')
    expect(entries[1]!.truncated).toBe(false)

    const csv = await downloadedText(page, 'audit-export-csv')
    expect(csv.name).toMatch(/^plugboard-audit-.+\.csv$/)
    const records = parseCsv(csv.text)
    expect(records.map(record => [record.tool, record.status])).toEqual([['failing_tool', 'error'], ['calculate', 'done']])
    expect(JSON.parse(records[1]!.arguments_asked!)).toEqual({ expression: '12*7' })
    // the chat's title starts with "=": a spreadsheet would run it, so the cell is prefixed
    expect(records[0]!.chat_title).toMatch(/^'=SUM\(1,2\)/)
    for (const record of records) {
      for (const cell of Object.values(record)) expect(cell).not.toMatch(/^\s*[=+\-@]/)
    }

    // a filter narrows the export too
    await page.getByTestId('audit-filter-status').selectOption('done')
    await expect(rows(page)).toHaveCount(1)
    expect(parseCsv((await downloadedText(page, 'audit-export-csv')).text).map(record => record.tool)).toEqual(['calculate'])
  })

  test('the log outlives a deleted chat, is cleared only after confirming, and prunes by the retention', async ({ page }) => {
    await runTwoTools(page)
    // delete the calculate chat
    const first = page.getByTestId('thread-item').filter({ hasText: 'what is 12*7' })
    await first.hover()
    await first.getByTestId('thread-delete').click()
    await first.getByTestId('thread-delete').click()
    await expect(page.getByTestId('thread-item')).toHaveCount(1)

    await openAudit(page)
    await expect(rows(page)).toHaveCount(2)
    await expect(rows(page).nth(1)).toContainText('(deleted)')
    await rows(page).nth(1).getByTestId('audit-row-details').click()
    await expect(page.getByTestId('audit-run-chat-gone')).toContainText('(deleted)')
    await expect(page.getByTestId('audit-run-chat-link')).toHaveCount(0)

    // a run logged 40 days ago
    await seedRuns(page, [{ id: 'old-run', toolName: 'get_current_time', toolCallId: 'call_old', argumentsAsked: '{}', status: 'done', startedAt: Date.now() - 40 * 24 * 60 * 60 * 1000 }])
    await page.getByTestId('audit-retention').selectOption('forever')
    await page.reload()
    await expect(rows(page)).toHaveCount(3)
    // 30 days: the old run goes at once, and stays gone after a reload
    await page.getByTestId('audit-retention').selectOption('30')
    await expect(rows(page)).toHaveCount(2)
    await page.reload()
    await expect(page.getByTestId('audit-retention')).toHaveValue('30')
    await expect(rows(page)).toHaveCount(2)

    await page.getByTestId('audit-clear').click()
    const dialog = page.getByRole('dialog', { name: 'Clear the audit log?' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(rows(page)).toHaveCount(2)
    await page.getByTestId('audit-clear').click()
    await page.getByTestId('audit-clear-confirm').click()
    await expect(rows(page)).toHaveCount(0)
    await expect(page.getByTestId('audit-empty')).toHaveText('No tool has run yet.')
    // the chat that is left was not touched
    await page.goto('/')
    await expect(page.getByTestId('thread-item')).toHaveCount(1)
  })

  test('pages through a long log, 25 runs at a time', async ({ page }) => {
    await openApp(page)
    const now = Date.now()
    await seedRuns(page, Array.from({ length: 60 }, (_, index) => ({
      id: `seeded-${index}`, toolName: 'calculate', toolCallId: `call_${index}`, argumentsAsked: JSON.stringify({ expression: `${index}+1` }), status: 'done', startedAt: now - index * 60_000,
    })))
    await openAudit(page)
    await expect(page.getByTestId('audit-count')).toHaveText('60 runs')
    await expect(page.getByTestId('audit-page')).toHaveText('Page 1 of 3')
    await expect(rows(page)).toHaveCount(25)
    await expect(page.getByTestId('audit-page-previous')).toBeDisabled()
    await page.getByTestId('audit-page-next').click()
    await expect(page.getByTestId('audit-page')).toHaveText('Page 2 of 3')
    await rows(page).first().getByTestId('audit-row-details').click()
    await expect(page.getByTestId('audit-run-arguments-asked')).toContainText('"25+1"')
    await page.getByTestId('audit-page-next').click()
    await expect(page.getByTestId('audit-page')).toHaveText('Page 3 of 3')
    await expect(rows(page)).toHaveCount(10)
    await expect(page.getByTestId('audit-page-next')).toBeDisabled()
    await page.getByTestId('audit-page-previous').click()
    await expect(page.getByTestId('audit-page')).toHaveText('Page 2 of 3')
    await expect(rows(page)).toHaveCount(25)
  })

  test('the audit page has no accessibility violations, with a run\'s details open', async ({ page }) => {
    await runTwoTools(page)
    await openAudit(page)
    await rows(page).first().getByTestId('audit-row-details').click()
    await expect(page.getByTestId('audit-run-details')).toBeVisible()
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map(violation => `${violation.id}: ${violation.nodes.map(node => node.target.join(' ')).join(', ')}`)).toEqual([])
  })
})

test.describe('audit log of a chat run on the server', () => {
  test.use({ baseURL: PROXY_APP_URL })

  test('a tool the server ran for a chat is logged by the tab that follows it', async ({ page }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/tools'), runOnServer: true })
    const started = page.waitForRequest(request => request.url().endsWith('/api/chats') && request.method() === 'POST')
    await sendMessage(page, 'Use a tool please')
    await started
    await expect(page.locator('[data-testid="tool-card"]').first()).toHaveAttribute('data-status', /done|error/, { timeout: 15_000 })
    await waitForIdle(page)
    const tool = await page.locator('[data-testid="tool-card"]').first().getAttribute('data-tool')

    await openAudit(page)
    await expect(rows(page)).toHaveCount(1)
    await expect(rows(page).first()).toHaveAttribute('data-tool', tool!)
    await rows(page).first().getByTestId('audit-row-details').click()
    await expect(page.getByTestId('audit-run-chat-link')).toHaveText('Use a tool please')
    await expect(page.getByTestId('audit-run-details')).toContainText(/\d+ ms/)
  })
})
