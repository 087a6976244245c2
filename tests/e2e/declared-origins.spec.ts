// Tool plugins reach the hosts they declare (`connects`), and only those: the built app with Open-Meteo's origins
// pointed at a local stand-in (NUXT_PUBLIC_CONNECT_ORIGIN_OVERRIDES), the page's policy otherwise unchanged.
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { openApp, sendMessage, waitForIdle, watchCspViolations } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startFakeOpenMeteo } from './support/fake-open-meteo'
import type { FakeOpenMeteo } from './support/fake-open-meteo'

let app: AppInstance
let openMeteo: FakeOpenMeteo

test.beforeAll(async () => {
  openMeteo = await startFakeOpenMeteo()
  app = await startApp({
    NUXT_PUBLIC_CONNECT_ORIGIN_OVERRIDES: `https://geocoding-api.open-meteo.com=${openMeteo.origin},https://api.open-meteo.com=${openMeteo.origin}`,
  })
})

test.afterAll(async () => {
  await app?.stop()
  await openMeteo?.close()
})

async function openWithWeather(page: Page) {
  await openApp(page, app.url)
  await page.evaluate(() => localStorage.setItem('plugboard:tool-states:v1', JSON.stringify({ version: 1, states: { get_weather: true } })))
  await openApp(page, app.url)
}

test('Weather reaches the origin it declares, with zero CSP violations', async ({ page }) => {
  const violations = await watchCspViolations(page)
  const response = await page.goto(app.url, { waitUntil: 'commit' })
  const connectSrc = response!.headers()['content-security-policy']!.split('; ').find(directive => directive.startsWith('connect-src'))
  // the declared origins (here both replaced by the stand-in), and nothing else was added
  expect(connectSrc).toBe(`connect-src 'self' https://openrouter.ai ${openMeteo.origin}`)
  await openWithWeather(page)

  await sendMessage(page, 'weather in Lisbon')
  const card = page.locator('[data-testid="tool-card"][data-tool="get_weather"]').last()
  await expect(card).toHaveAttribute('data-status', 'awaiting-approval', { timeout: 15_000 })
  await card.getByRole('button', { name: 'Allow once' }).click()
  await waitForIdle(page)
  await expect(card).toHaveAttribute('data-status', 'done')
  await expect(card).toContainText('Lisbon, Lisbon, Portugal')
  // the weather card shows the stand-in's reading (23.4 °C, 55 % humidity) rounded, as a person reads it
  await expect(card).toContainText('23°C')
  await expect(card).toContainText('55%')
  expect(openMeteo.requests.map(path => path.split('?')[0])).toEqual(['/v1/search', '/v1/forecast'])
  await card.screenshot({ path: test.info().outputPath('weather-card-desktop.png') })
  await page.setViewportSize({ width: 390, height: 844 })
  await card.scrollIntoViewIfNeeded()
  await page.screenshot({ path: test.info().outputPath('weather-card-phone.png') })
  expect(violations).toEqual([])
})

test('a tool fetching an origin nobody declared says so on its card, not "Failed to fetch"', async ({ page }) => {
  await openApp(page, app.url)
  await page.evaluate(() => {
    const registry = (window as unknown as { plugboard: { registry: { registerTool: (definition: unknown, handler: (args: unknown, context: { fetch: (url: string) => Promise<Response> }) => unknown) => void } } }).plugboard.registry
    registry.registerTool(
      { type: 'function', function: { name: 'reach_undeclared', description: 'Reads a page from a host no plugin declared.' } },
      async (_, context) => (await context.fetch('https://undeclared.example.com/data')).text(),
    )
  })
  await sendMessage(page, 'call reach_undeclared')
  await waitForIdle(page)
  const card = page.locator('[data-testid="tool-card"][data-tool="reach_undeclared"]').last()
  await expect(card).toHaveAttribute('data-status', 'error')
  await expect(card).toContainText('blocked by this page\'s security policy: https://undeclared.example.com is not declared')
  await expect(card).not.toContainText('Failed to fetch')
})
