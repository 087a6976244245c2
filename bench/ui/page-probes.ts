import type { Page } from '@playwright/test'

/** What a probe saw in the page: when the target became visible (ms from navigation start) and the long tasks. */
export interface ProbeResult {
  visibleAtMs: number | null
  longTasks: number[]
  domNodes: number
}

/**
 * Installs, before any of the app's code runs, a long-task observer and a per-frame check for `selector` being
 * on screen (inside the viewport, with a size). Read it with `readProbe`.
 */
export async function installProbe(page: Page, selector: string | null): Promise<void> {
  // A string, not a function: tsx would compile a function with name helpers (`__name`) the page does not have.
  await page.addInitScript(`(() => {
    const target = ${JSON.stringify(selector)}
    const state = { visibleAtMs: null, longTasks: [] }
    window.__benchProbe = state
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.longTasks.push(Math.round(entry.duration))
    }).observe({ type: 'longtask', buffered: true })
    if (!target) return
    const check = () => {
      const box = document.querySelector(target)?.getBoundingClientRect()
      if (box && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight) {
        state.visibleAtMs = performance.now()
        return
      }
      requestAnimationFrame(check)
    }
    // A frame requested while the document is still starting is never run: start once the DOM is parsed.
    document.addEventListener('DOMContentLoaded', () => requestAnimationFrame(check))
  })()`)
}

/** Clears the long tasks seen so far (to measure one phase). */
export async function resetLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => { (window as unknown as { __benchProbe: { longTasks: number[] } }).__benchProbe.longTasks.length = 0 })
}

export async function readProbe(page: Page): Promise<ProbeResult> {
  return page.evaluate(() => {
    const state = (window as unknown as { __benchProbe: { visibleAtMs: number | null, longTasks: number[] } }).__benchProbe
    return { visibleAtMs: state.visibleAtMs, longTasks: [...state.longTasks], domNodes: document.getElementsByTagName('*').length }
  })
}

/** Waits until the probe saw its target. */
export async function waitForVisible(page: Page, timeoutMs = 60_000): Promise<number> {
  const handle = await page.waitForFunction(
    () => (window as unknown as { __benchProbe?: { visibleAtMs: number | null } }).__benchProbe?.visibleAtMs ?? null,
    undefined,
    { timeout: timeoutMs, polling: 50 },
  )
  return handle.jsonValue() as Promise<number>
}
