import { loadavg } from 'node:os'
import type { Browser } from '@playwright/test'
import { TRICKLE_TOKENS, tricklePrompt } from './long-reply'
import { findTokens, matchRun, newRunNonce, quantile, type WriteLog } from './token-match'

export interface TokenPaintResult {
  /** Token to paint: from the upstream's write of a token to the first frame that shows it, ms. NaN when rejected. */
  p50Ms: number
  p95Ms: number
  /** Tokens of this run seen on screen, of TRICKLE_TOKENS. */
  tokensSeen: number
  /** Every matched token's latency, ms (empty when rejected). */
  latencies: number[]
  /** Why this run has no figures (see matchRun). */
  rejected?: string
}

const tenth = (value: number) => Math.round(value * 10) / 10

/**
 * Sends this run's trickle prompt (a fresh nonce); the bench model writes one word of the run every 40 ms and notes
 * when, under the nonce. In the page, every DOM change asks for the next animation frame, and that frame (the one
 * that paints the change) notes the run words the newest reply shows by then. Both clocks are the machine's wall
 * clock (the page's `timeOrigin + now()`). Only this run's writes are matched to its words.
 */
export async function measureTokenPaint(browser: Browser, appUrl: string, trickle: WriteLog, options: { runOnServer?: boolean } = {}): Promise<TokenPaintResult> {
  const nonce = newRunNonce()
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  await context.addInitScript(`localStorage.setItem('plugboard:run-on-server:v1', ${JSON.stringify(String(Boolean(options.runOnServer)))})`)
  // A string, not a function: tsx would add name helpers (`__name`) the page does not have.
  await context.addInitScript(`(() => {
    const seen = window.__tokenSeenAt = {}
    let frame = 0
    const look = () => {
      frame = 0
      const messages = document.querySelectorAll('[data-testid="message"][data-role="assistant"] [data-slot="content"]')
      const text = messages[messages.length - 1]?.textContent ?? ''
      const at = performance.timeOrigin + performance.now()
      for (const match of text.matchAll(/\\btok[a-z]{6}x\\d+\\b/g)) seen[match[0]] ??= at
    }
    new MutationObserver(() => { frame ||= requestAnimationFrame(look) })
      .observe(document, { subtree: true, childList: true, characterData: true })
  })()`)
  const page = await context.newPage()
  await page.goto(appUrl, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  await page.getByTestId('composer-input').fill(tricklePrompt(nonce))
  await page.getByTestId('composer-input').press('Enter')
  await page.waitForFunction(() => {
    const messages = document.querySelectorAll('[data-testid="message"][data-role="assistant"]')
    return /complete|error|stopped/.test(messages[messages.length - 1]?.getAttribute('data-status') ?? '')
  }, undefined, { timeout: 60_000, polling: 100 })
  const seen = await page.evaluate(() => (window as unknown as { __tokenSeenAt: Record<string, number> }).__tokenSeenAt)
  await context.close()
  const matched = matchRun(Object.entries(seen).flatMap(([word, at]) => findTokens(word, at)), trickle, nonce, TRICKLE_TOKENS)
  trickle.forget(nonce)
  return { ...matched, p50Ms: tenth(quantile(matched.latencies, 0.5)), p95Ms: tenth(quantile(matched.latencies, 0.95)) }
}

/** Token to paint of one way over interleaved rounds. */
export interface TokenPaintRounds {
  /** Over every matched token of the kept rounds, ms. */
  p50Ms: number
  p95Ms: number
  /** Each kept round's p95, ms. */
  roundP95Ms: number[]
  kept: number
  /** Rounds left out, with the reason. */
  rejected: string[]
}

/**
 * `rounds` rounds of token to paint, each measuring the loop in the tab (the plain proxy) and a server-run chat in
 * turn, the first of the two alternating, so a busy machine weighs on both alike. The 1-minute load average is kept
 * per round.
 */
export async function measureTokenPaintRounds(browser: Browser, appUrl: string, trickle: WriteLog, rounds: number) {
  const ways = { 'plain proxy (loop in the tab)': false, 'server-run chat': true }
  const byWay = new Map(Object.keys(ways).map(way => [way, [] as TokenPaintResult[]]))
  const loads: number[] = []
  for (let round = 0; round < rounds; round++) {
    const order = Object.entries(ways)
    for (const [way, runOnServer] of round % 2 ? order.reverse() : order) {
      byWay.get(way)!.push(await measureTokenPaint(browser, appUrl, trickle, { runOnServer }))
    }
    loads.push(Math.round(loadavg()[0]! * 100) / 100)
  }
  const summary = Object.fromEntries([...byWay].map(([way, results]): [string, TokenPaintRounds] => {
    const kept = results.filter(result => !result.rejected)
    const all = kept.flatMap(result => result.latencies)
    return [way, {
      p50Ms: tenth(quantile(all, 0.5)),
      p95Ms: tenth(quantile(all, 0.95)),
      roundP95Ms: kept.map(result => result.p95Ms),
      kept: kept.length,
      rejected: results.flatMap((result, index) => (result.rejected ? [`round ${index + 1}: ${result.rejected}`] : [])),
    }]
  }))
  return { ways: summary, loads }
}
