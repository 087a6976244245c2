import type { Browser, BrowserContext } from '@playwright/test'
import { importChat, longChat } from '../../tests/e2e/support/seed-chat'
import { startTrace, stopTrace, type LongTaskBreakdown } from './long-task-trace'
import { installProbe, readProbe, resetLongTasks, waitForVisible } from './page-probes'

export interface OpenChatResult {
  /** From navigation start until the target (newest message, or the empty chat's screen) was on screen. */
  visibleMs: number
  longTasks: number
  longestTaskMs: number
  domNodes: number
}

const SETTLE_MS = 1000

async function openAndMeasure(context: BrowserContext, url: string, selector: string): Promise<OpenChatResult> {
  const page = await context.newPage()
  await installProbe(page, selector)
  await page.goto(url, { waitUntil: 'commit' })
  const visibleMs = await waitForVisible(page)
  await page.waitForTimeout(SETTLE_MS)
  const probe = await readProbe(page)
  await page.close()
  return { visibleMs: Math.round(visibleMs), longTasks: probe.longTasks.length, longestTaskMs: Math.max(0, ...probe.longTasks), domNodes: probe.domNodes }
}

/**
 * Opens an empty chat (the new-chat screen) and a 2,000-message chat with 500 tool calls, `runs` times each in
 * one persistent browser context (IndexedDB holds the seeded chat), and returns the median run of each.
 */
export async function measureLongChat(browser: Browser, appUrl: string, runs = 3): Promise<{ empty: OpenChatResult, long: OpenChatResult }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const setup = await context.newPage()
  await setup.goto(appUrl, { waitUntil: 'commit' })
  await setup.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  const chat = longChat('bench-long-chat', 2000)
  await importChat(setup, chat)
  await setup.close()
  const newest = chat.messages.at(-1)!.id
  const median = (results: OpenChatResult[]) => [...results].sort((a, b) => a.visibleMs - b.visibleMs)[Math.floor(results.length / 2)]!
  const empty: OpenChatResult[] = []
  const long: OpenChatResult[] = []
  for (let run = 0; run < runs; run++) {
    empty.push(await openAndMeasure(context, `${appUrl}/`, '[data-testid="composer-input"]'))
    long.push(await openAndMeasure(context, `${appUrl}/?thread=${chat.thread.id}`, `[data-message-id="${newest}"]`))
  }
  await context.close()
  return { empty: median(empty), long: median(long) }
}

export interface ScrollToTopResult {
  /** From the first wheel turn until the chat's first message was on screen. */
  reachedMs: number
  /** Wheel turns it took (each 2,400 px up, 100 ms apart, as a user flicking the wheel). */
  wheelTurns: number
  longTasks: number
  longestTaskMs: number
  domNodes: number
  /** With `trace`: what each long task of the scroll was (Chromium trace). */
  longTaskBreakdown?: LongTaskBreakdown[]
}

/**
 * Opens the 2,000-message chat at its newest message, then scrolls up with the mouse wheel until its first message
 * is on screen (older rows are paged in on the way): the long tasks of that scroll.
 */
export async function measureScrollToTop(browser: Browser, appUrl: string, options: { trace?: boolean } = {}): Promise<ScrollToTopResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await installProbe(page, null)
  await page.goto(appUrl, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  const chat = longChat('bench-scroll-chat', 2000)
  await importChat(page, chat)
  await page.goto(`${appUrl}/?thread=${chat.thread.id}`, { waitUntil: 'commit' })
  await page.locator(`[data-message-id="${chat.messages.at(-1)!.id}"]`).waitFor({ state: 'visible', timeout: 60_000 })
  await page.waitForTimeout(SETTLE_MS)
  const box = (await page.getByTestId('message-list').boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  if (options.trace) {
    await startTrace(browser, page)
    await page.waitForTimeout(SETTLE_MS)
  }
  await resetLongTasks(page)
  const first = page.locator(`[data-message-id="${chat.messages[0]!.id}"]`)
  const started = Date.now()
  let wheelTurns = 0
  while (!(await first.isVisible())) {
    if (Date.now() - started > 180_000) throw new Error('The first message was not reached within 3 minutes of scrolling.')
    await page.mouse.wheel(0, -2400)
    wheelTurns++
    await page.waitForTimeout(100)
  }
  const reachedMs = Date.now() - started
  await page.waitForTimeout(SETTLE_MS)
  const probe = await readProbe(page)
  const longTaskBreakdown = options.trace ? await stopTrace(browser) : undefined
  await context.close()
  return { longTaskBreakdown, reachedMs, wheelTurns, longTasks: probe.longTasks.length, longestTaskMs: Math.max(0, ...probe.longTasks), domNodes: probe.domNodes }
}
