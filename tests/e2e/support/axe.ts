// The accessibility check every spec runs: axe-core's serious and critical violations, as `rule: targets` lines.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

export interface AxeScope {
  /** Check only what these selectors match. */
  include?: string | string[]
  /** Leave out what these selectors match. */
  exclude?: string | string[]
}

/**
 * The serious and critical axe violations of the page (or `scope`), once its animations have ended: colours read
 * mid-transition (the colour mode just switched, a hover fading, a panel opening) are neither mode's: axe's contrast
 * rule failed on them in 3 of 280 browser tests run one at a time.
 */
export async function seriousViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  // a spinner's endless animation never finishes: only those that end are waited for
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter(animation => Number.isFinite(animation.effect?.getComputedTiming().endTime))
    .map(animation => animation.finished.catch(() => undefined))))
  let builder = new AxeBuilder({ page })
  for (const selector of [scope.include ?? []].flat()) builder = builder.include(selector)
  for (const selector of [scope.exclude ?? []].flat()) builder = builder.exclude(selector)
  const results = await builder.analyze()
  return results.violations
    .filter(violation => violation.impact === 'serious' || violation.impact === 'critical')
    .map(violation => `${violation.id}: ${violation.nodes.map(node => node.target.join(' ')).join(', ')}`)
}
