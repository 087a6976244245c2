import type { Browser } from '@playwright/test'
import { TRICKLE_PROMPT, TRICKLE_TOKENS, type TrickleLog } from './long-reply'

export interface TokenPaintResult {
  /** Token to paint: from the upstream's write of a token to the first frame that shows it, ms. */
  p50Ms: number
  p95Ms: number
  /** Tokens seen on screen, of TRICKLE_TOKENS. */
  tokensSeen: number
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]! : Number.NaN
}

/**
 * Sends TRICKLE_PROMPT; the bench model writes one word every 40 ms and notes when. In the page, every DOM change
 * asks for the next animation frame, and that frame (the one that paints the change) notes the words the newest
 * reply shows by then. Both clocks are the machine's wall clock (the page's `timeOrigin + now()`).
 */
export async function measureTokenPaint(browser: Browser, appUrl: string, trickle: TrickleLog, options: { runOnServer?: boolean } = {}): Promise<TokenPaintResult> {
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
      for (const match of text.matchAll(/\\bw(\\d+)\\b/g)) seen[match[1]] ??= at
    }
    new MutationObserver(() => { frame ||= requestAnimationFrame(look) })
      .observe(document, { subtree: true, childList: true, characterData: true })
  })()`)
  const page = await context.newPage()
  await page.goto(appUrl, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  await page.getByTestId('composer-input').fill(TRICKLE_PROMPT)
  await page.getByTestId('composer-input').press('Enter')
  await page.waitForFunction(() => {
    const messages = document.querySelectorAll('[data-testid="message"][data-role="assistant"]')
    return /complete|error|stopped/.test(messages[messages.length - 1]?.getAttribute('data-status') ?? '')
  }, undefined, { timeout: 60_000, polling: 100 })
  const seen = await page.evaluate(() => (window as unknown as { __tokenSeenAt: Record<string, number> }).__tokenSeenAt)
  await context.close()
  const latencies: number[] = []
  for (let index = 0; index < TRICKLE_TOKENS; index++) {
    const shown = seen[String(index)]
    const written = trickle.writtenAt[index]
    if (shown !== undefined && written !== undefined) latencies.push(shown - written)
  }
  return { p50Ms: Math.round(percentile(latencies, 0.5) * 10) / 10, p95Ms: Math.round(percentile(latencies, 0.95) * 10) / 10, tokensSeen: latencies.length }
}
