import { expect, test } from '@playwright/test'
import { openApp, sendMessage, lastAssistant, waitForIdle } from './helpers'

test.describe('saved settings that cannot be read', () => {
  test('are reset to the defaults with a notice the user can close, and the app keeps working', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => {
      localStorage.setItem('plugboard:tool-policies:v1', '{"version":1,"policies":')
      localStorage.setItem('plugboard:tool-settings:v1', JSON.stringify({ version: 7, settings: {} }))
    })
    await openApp(page)

    const notices = page.getByTestId('settings-notice')
    await expect(notices.filter({ hasText: 'Your saved tool policies could not be read (not valid JSON)' })).toBeVisible()
    await expect(notices.filter({ hasText: 'Your saved tool settings could not be read (version:' })).toBeVisible()

    await sendMessage(page, 'hello')
    await waitForIdle(page)
    await expect(lastAssistant(page)).not.toBeEmpty()

    await notices.first().getByRole('button').click()
    await expect(notices).toHaveCount(1)
  })

  test('a corrupt provider setting is named in a notice and the saved key is kept', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => localStorage.setItem('plugboard:provider:v1', JSON.stringify({
      version: 1, providerId: 'demo', openrouter: { keySource: 'user', apiKey: 'sk-or-keep', model: 42 },
    })))
    await openApp(page)
    await expect(page.getByTestId('settings-notice').filter({ hasText: 'were invalid (model)' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('plugboard:provider:v1'))).toContain('sk-or-keep')
  })
})
