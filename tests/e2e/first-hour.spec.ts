// What a newcomer meets in the first hour: a page that does not exist, and the demo model asked like a person would.
import { expect, test } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle, waitForReady, watchCspViolations } from './helpers'
import { seriousViolations } from './support/axe'

test.describe('the 404 page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`is the app's own page with a way home, no CSP violation and no axe violation (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme })
      const violations = await watchCspViolations(page)
      await page.goto('/no-such-page')
      const error = page.getByTestId('error-page')
      await expect(error).toBeVisible()
      await expect(error).toHaveAttribute('data-status', '404')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page does not exist')
      await expect(page).toHaveTitle(/Page not found/)
      expect(await seriousViolations(page)).toEqual([])
      await page.getByTestId('error-home').click()
      await expect(page).toHaveURL(/\/$/)
      await waitForReady(page)
      await expect(page.getByTestId('composer-input')).toBeVisible()
      expect(violations).toEqual([])
    })
  }
})

test.describe('the demo model, asked in plain words', () => {
  test('answers both parts of "what is 1/0 and sqrt(-4)"', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'what is 1/0 and sqrt(-4)')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]')).toHaveCount(2)
    await expect(lastAssistant(page)).toContainText('1/0 =')
    await expect(lastAssistant(page)).toContainText('sqrt(-4) =')
  })

  test('says it cannot know the time on Mars instead of giving UTC', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'what time is it on Mars')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('can\'t tell the time on Mars')
    await expect(page.locator('[data-testid="tool-card"]')).toHaveCount(0)
  })

  test('calls a tool the user added from "add 2 and 40"', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => {
      (window as any).plugboard.registerTool(
        { type: 'function', function: { name: 'add_numbers', description: 'Adds two numbers', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } } },
        ({ a, b }: { a: number, b: number }) => String(a + b),
      )
    })
    await sendMessage(page, 'add 2 and 40')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="tool-card"][data-tool="add_numbers"]')).toHaveAttribute('data-status', 'done')
    await expect(lastAssistant(page)).toContainText('42')
  })
})
