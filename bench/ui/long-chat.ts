import { loadavg } from 'node:os'
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

/** One open of each chat, one right after the other, and the machine's 1-minute load average when it started. */
export interface OpenPair {
  empty: OpenChatResult
  long: OpenChatResult
  /** long.visibleMs / empty.visibleMs */
  ratio: number
  loadAverage: number
}

export interface LongChatMeasurement {
  /** The median of each figure over the pairs (each figure's own median). */
  empty: OpenChatResult
  long: OpenChatResult
  /** Median of the pairs' ratios: each ratio compares two opens made seconds apart, under the same load. */
  ratio: number
  /** The lowest and highest ratio of a pair. */
  ratioRange: [number, number]
  /** The longest task of any open, empty and long. */
  worstTaskMs: { empty: number, long: number }
  pairs: OpenPair[]
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const round2 = (value: number) => Math.round(value * 100) / 100

function medianResult(results: OpenChatResult[]): OpenChatResult {
  return {
    visibleMs: Math.round(median(results.map(result => result.visibleMs))),
    longTasks: median(results.map(result => result.longTasks)),
    longestTaskMs: Math.round(median(results.map(result => result.longestTaskMs))),
    domNodes: Math.round(median(results.map(result => result.domNodes))),
  }
}

/**
 * Opens an empty chat (the new-chat screen) and a 2,000-message chat with 500 tool calls in one persistent browser
 * context (IndexedDB holds the seeded chat). One unmeasured open of each first, so that both are measured with the
 * scripts in the HTTP and code caches (the first open of each paid for compiling its own chunks, which made the
 * ratio swing between runs). Then `pairs` times an empty open followed at once by a long one: the ratio of each
 * pair compares two opens under the same machine load, and the median ratio of the pairs is the figure.
 */
export async function measureLongChat(browser: Browser, appUrl: string, pairs = 5): Promise<LongChatMeasurement> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const setup = await context.newPage()
  await setup.goto(appUrl, { waitUntil: 'commit' })
  await setup.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  const chat = longChat('bench-long-chat', 2000)
  await importChat(setup, chat)
  await setup.close()
  const emptyUrl = `${appUrl}/`
  const emptyTarget = '[data-testid="composer-input"]'
  const longUrl = `${appUrl}/?thread=${chat.thread.id}`
  const longTarget = `[data-message-id="${chat.messages.at(-1)!.id}"]`
  await openAndMeasure(context, emptyUrl, emptyTarget)
  await openAndMeasure(context, longUrl, longTarget)
  const measured: OpenPair[] = []
  for (let pair = 0; pair < pairs; pair++) {
    const loadAverage = round2(loadavg()[0]!)
    const empty = await openAndMeasure(context, emptyUrl, emptyTarget)
    const long = await openAndMeasure(context, longUrl, longTarget)
    measured.push({ empty, long, ratio: round2(long.visibleMs / empty.visibleMs), loadAverage })
  }
  await context.close()
  const ratios = measured.map(pair => pair.ratio)
  return {
    empty: medianResult(measured.map(pair => pair.empty)),
    long: medianResult(measured.map(pair => pair.long)),
    ratio: round2(median(ratios)),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    worstTaskMs: { empty: Math.max(...measured.map(pair => pair.empty.longestTaskMs)), long: Math.max(...measured.map(pair => pair.long.longestTaskMs)) },
    pairs: measured,
  }
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
export async function measureScrollToTop(browser: Browser, appUrl: string, options: { trace?: boolean, cpuThrottle?: number } = {}): Promise<ScrollToTopResult> {
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
  // `--cpu-throttle N`: Chromium runs the page N× slower (a slow laptop), which shows up work the fast machine hides.
  if (options.cpuThrottle && options.cpuThrottle > 1) {
    const session = await context.newCDPSession(page)
    await session.send('Emulation.setCPUThrottlingRate', { rate: options.cpuThrottle })
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
