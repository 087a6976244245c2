// The first screen's script carries the icons the first screen shows; the app's other named icons come in a chunk of
// their own once the first screen is ready, so a menu opened later paints its icons without asking the server.
import { expect, test } from '@playwright/test'
import { openApp } from './helpers'

// An icon of the bundle the first screen does not show: the weather tool's, in the tools popover
const LATER_ICON = '"cloud-sun":{'
// An icon of the first screen: the composer's send button
const FIRST_SCREEN_ICON = '"arrow-up":{'

test('the first screen fetches only its own icons; the others arrive once it is ready and the tools popover shows them without asking the server', async ({ page, request }) => {
  const scripts: string[] = []
  const iconRequests: string[] = []
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) void response.text().then(text => scripts.push(text), () => {})
  })
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/api/_nuxt_icon/')) iconRequests.push(url.pathname + url.search)
  })
  await openApp(page)
  const beforeReady = await page.evaluate(() => {
    const ready = performance.getEntriesByName('plugboard:ready', 'mark')[0]?.startTime ?? Infinity
    return performance.getEntriesByType('resource').filter(entry => entry.startTime <= ready).map(entry => new URL(entry.name).pathname).filter(path => path.endsWith('.js'))
  })
  const texts = await Promise.all(beforeReady.map(async path => (await request.get(path)).text()))
  expect(texts.some(text => text.includes(FIRST_SCREEN_ICON))).toBe(true)
  expect(texts.filter(text => text.includes(LATER_ICON))).toEqual([])
  await expect.poll(() => scripts.some(text => text.includes(LATER_ICON)), { timeout: 30_000 }).toBe(true)

  await page.getByTestId('tool-popover-trigger').click()
  const icon = page.getByTestId('tool-popover-content').locator('[data-tool="get_weather"] [data-slot="tool-icon"]')
  await expect(icon).toBeVisible()
  await expect.poll(() => icon.evaluate(element => element.outerHTML), { timeout: 10_000 }).toMatch(/<svg[^]*<path/)
  expect(iconRequests.filter(path => path.includes('cloud-sun'))).toEqual([])
})
