import { expect, test } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'
import { seriousViolations } from './support/axe'

test.describe('accessibility', () => {
  test('a conversation with tool cards has no serious axe violations, in light and dark mode', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'What time is it in Tokyo, and what is 12*7?')
    await waitForIdle(page)
    expect(await seriousViolations(page)).toEqual([])
    await page.getByTestId('color-mode').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(await seriousViolations(page)).toEqual([])
  })

  test('the whole loop works from the keyboard alone', async ({ page }) => {
    await openApp(page)
    const input = page.getByTestId('composer-input')
    await input.focus()
    await page.keyboard.type('what is 12*7')
    await page.keyboard.press('Enter')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('84')

    // Tool popover by keyboard: focus the trigger, open it (focus moves to the first switch), Space switches it off.
    await page.getByTestId('tool-popover-trigger').focus()
    await page.keyboard.press('Enter')
    const toolSwitch = page.getByTestId('tool-switch-calculate')
    await expect(toolSwitch).toBeFocused()
    await page.keyboard.press('Space')
    await expect(toolSwitch).toHaveAttribute('aria-checked', 'false')
    await page.keyboard.press('Escape')
    await expect(toolSwitch).toBeHidden()
  })
})
