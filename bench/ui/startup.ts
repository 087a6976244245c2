import type { Browser, BrowserContext } from '@playwright/test'
import { importChat, longChat } from '../../tests/e2e/support/seed-chat'
import { installProbe, readProbe } from './page-probes'

export interface StartupResult {
  messages: number
  /** From navigation start until the page said it is ready (start-up chores done, first screen mounted). */
  readyMs: number
  longTasks: number
  longestTaskMs: number
  /** How long marking the replies cut off by the last reload took (builds that measure it), ms. */
  markInterruptedMs: number | null
  /** What marking them cost before the index: a cursor over every message row, straight on IndexedDB, ms. */
  fullScanMs: number
}

const SETTLE_MS = 1000

async function loadAndMeasure(context: BrowserContext, url: string): Promise<Omit<StartupResult, 'messages'>> {
  const page = await context.newPage()
  await installProbe(page, null)
  await page.goto(url, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000, polling: 10 })
  const readyMs = await page.evaluate(() => performance.now())
  const markInterruptedMs = await page.evaluate(() => performance.getEntriesByName('plugboard:mark-interrupted')[0]?.duration ?? null)
  await page.waitForTimeout(SETTLE_MS)
  const probe = await readProbe(page)
  // A string, not a function: tsx would add name helpers (`__name`) the page does not have.
  const fullScanMs = await page.evaluate(`(async () => {
    const db = await new Promise((done, fail) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => done(request.result)
      request.onerror = () => fail(request.error)
    })
    const started = performance.now()
    await new Promise((done, fail) => {
      const request = db.transaction('messages', 'readwrite').objectStore('messages').openCursor()
      request.onsuccess = () => {
        const cursor = request.result
        if (!cursor) return done()
        const row = cursor.value
        if (row.status === 'pending' || row.status === 'streaming' || row.toolStatus === 'running') cursor.update(row)
        cursor.continue()
      }
      request.onerror = () => fail(request.error)
    })
    const ms = performance.now() - started
    db.close()
    return Math.round(ms)
  })()`) as number
  await page.close()
  return { readyMs: Math.round(readyMs), markInterruptedMs: markInterruptedMs === null ? null : Math.round(markInterruptedMs * 10) / 10, fullScanMs, longTasks: probe.longTasks.length, longestTaskMs: Math.max(0, ...probe.longTasks) }
}

/**
 * Start-up of the app (the new-chat screen) with an empty database, and with 12,000 stored messages in two chats
 * (the start-up chores, such as marking replies cut off by the last reload, must not read them all). Median of 3.
 */
export async function measureStartup(browser: Browser, appUrl: string, runs = 3): Promise<{ empty: StartupResult, full: StartupResult }> {
  const median = (results: Omit<StartupResult, 'messages'>[]) => [...results].sort((a, b) => a.readyMs - b.readyMs)[Math.floor(results.length / 2)]!
  const measure = async (seed: boolean): Promise<StartupResult> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const setup = await context.newPage()
    await setup.goto(appUrl, { waitUntil: 'commit' })
    await setup.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
    if (seed) {
      await importChat(setup, longChat('bench-startup-big', 10_000))
      await importChat(setup, longChat('bench-startup-small', 2_000))
    }
    await setup.close()
    const results = []
    for (let run = 0; run < runs; run++) results.push(await loadAndMeasure(context, `${appUrl}/`))
    await context.close()
    return { messages: seed ? 12_000 : 0, ...median(results) }
  }
  return { empty: await measure(false), full: await measure(true) }
}
