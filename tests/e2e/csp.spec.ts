// A whole session under the app's strict Content-Security-Policy: chatting, a tool card, highlighted code, the
// settings, a locally hosted endpoint allowed by the user. Any blocked script, style, image or connection fails it.
import { expect, test } from '@playwright/test'
import { FAKE_URL, lastAssistant, sendMessage, waitForIdle, waitForReady, watchCspViolations } from './helpers'

declare global {
  interface Window { __cspViolations?: string[] }
}

test('a full session runs with zero CSP violations, and the policy is strict', async ({ page }) => {
  const violations = await watchCspViolations(page)

  const response = await page.goto('/', { waitUntil: 'commit' })
  const policy = response!.headers()['content-security-policy']!
  const scriptSrc = policy.split('; ').find(directive => directive.startsWith('script-src'))!
  const scriptSources = scriptSrc.split(' ').slice(1)
  expect(scriptSources).not.toContain(`'unsafe-inline'`)
  expect(scriptSources).not.toContain(`'unsafe-eval'`)
  expect(scriptSources.filter(source => !source.startsWith(`'sha256-`))).toEqual([`'self'`, `'wasm-unsafe-eval'`])
  expect(policy).toContain(`base-uri 'none'`)
  expect(policy).toContain(`form-action 'self'`)
  expect(policy).toContain(`frame-ancestors 'none'`)
  // the app, OpenRouter and the origins the plugins declare (Weather's), nothing else
  expect(policy).toContain(`connect-src 'self' https://openrouter.ai https://geocoding-api.open-meteo.com https://api.open-meteo.com;`)
  await waitForReady(page)

  // The same headers on static assets.
  const asset = await page.evaluate(() => (document.querySelector('script[src^="/_nuxt/"]') as HTMLScriptElement).src)
  const assetResponse = await page.request.get(asset)
  expect(assetResponse.headers()['content-security-policy']).toContain(`script-src 'self'`)
  expect(assetResponse.headers()['x-content-type-options']).toBe('nosniff')

  // A tool call with its card, then highlighted code.
  await sendMessage(page, 'what is 12*7')
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText('84')
  await sendMessage(page, 'markdown')
  await waitForIdle(page)
  await expect(page.locator('code.shiki-highlighted').first()).toBeVisible({ timeout: 15_000 })

  // Settings: a local endpoint is allowed by the user, then chatted with straight from the browser.
  await page.getByTestId('settings-open').click()
  await page.getByTestId('provider-openai-compatible').check()
  await page.getByLabel('Base URL').fill(`${FAKE_URL}/api/v1`)
  await page.getByLabel('API key (optional)').fill('sk-local-key')
  await page.getByTestId('allow-connect').click()
  await waitForReady(page)
  await page.getByTestId('model-picker').click()
  await page.getByRole('option', { name: /Fake: recorded text/ }).click()
  await page.getByTestId('settings-save').click()
  // the panel is a modal: until it has closed, its focus trap keeps the typing from the composer
  await expect(page.getByTestId('settings-panel')).toHaveCount(0)
  await sendMessage(page, 'Name two pets')
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText('Pebbles and Skipper')
  const allowed = await page.request.get('/')
  expect(allowed.headers()['content-security-policy']).toContain(`connect-src 'self' https://openrouter.ai https://geocoding-api.open-meteo.com https://api.open-meteo.com ${FAKE_URL}`)

  expect(violations).toEqual([])
})
