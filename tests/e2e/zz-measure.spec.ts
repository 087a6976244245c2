import { expect, test } from '@playwright/test'
import { openApp } from './helpers'

test.describe.configure({ timeout: 300_000 })

test('measure the audit page over 20,000 runs', async ({ page }) => {
  await openApp(page)
  const N = 20_000
  await page.evaluate(N => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('plugboard')
    open.onsuccess = () => {
      const db = open.result
      const tx = db.transaction('audit', 'readwrite')
      const now = Date.now()
      for (let i = 0; i < N; i++) {
        tx.objectStore('audit').put({ id: `r${i}`, toolName: i % 100 === 0 ? 'rare_tool' : `tool_${i % 7}`, toolCallId: `c${i}`, threadId: `t${i % 50}`, threadTitle: 'A chat', argumentsAsked: JSON.stringify({ expression: `${i}*7`, note: 'x'.repeat(100) }), argumentsRun: JSON.stringify({ expression: `${i}*7` }), status: i % 5 === 0 ? 'error' : 'done', startedAt: now - i * 1000, durationMs: i % 300, resultBytes: 100, truncated: false })
      }
      tx.oncomplete = () => { db.close(); resolve() }
      tx.onerror = () => reject(tx.error)
    }
  }), N)
  let start = Date.now()
  await page.getByTestId('audit-link').click()
  await expect(page.getByTestId('audit-count')).toHaveText(`${N} runs`, { timeout: 120_000 })
  await expect(page.getByTestId('audit-row')).toHaveCount(25)
  console.log(`open audit page, count + first page: ${Date.now() - start} ms`)
  start = Date.now()
  await page.getByTestId('audit-page-next').click()
  await expect(page.getByTestId('audit-page')).toHaveText('Page 2 of 800')
  console.log(`next page: ${Date.now() - start} ms`)
  start = Date.now()
  await page.getByTestId('audit-filter-tool').selectOption('rare_tool')
  await expect(page.getByTestId('audit-count')).toHaveText('200 runs', { timeout: 120_000 })
  console.log(`filter rare tool (1%), count + first page: ${Date.now() - start} ms`)
  start = Date.now()
  await page.getByTestId('audit-filter-tool').selectOption('')
  await page.getByTestId('audit-filter-status').selectOption('error')
  await expect(page.getByTestId('audit-count')).toHaveText('4000 runs', { timeout: 120_000 })
  console.log(`filter status error (20%), count + first page: ${Date.now() - start} ms`)
  await page.getByTestId('audit-filter-status').selectOption('')
  await expect(page.getByTestId('audit-count')).toHaveText(`${N} runs`, { timeout: 120_000 })
  start = Date.now()
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('audit-export-csv').click()])
  await download.path()
  console.log(`CSV export of ${N}: ${Date.now() - start} ms`)
  start = Date.now()
  const [json] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('audit-export-json').click()])
  await json.path()
  console.log(`JSON export of ${N}: ${Date.now() - start} ms`)
  const heap = await page.evaluate(() => (performance as any).memory?.usedJSHeapSize)
  console.log(`JS heap after: ${(heap / 1e6).toFixed(1)} MB`)
})
