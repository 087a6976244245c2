import { expect, test, type Locator } from '@playwright/test'
import { openApp } from './helpers'
import { importChat, longChat } from './support/seed-chat'

// Opening a chat was made cheaper: the tool card's "View details" and the chat list's row buttons are plain buttons
// with UButton's classes, and the stylesheet leaves out the themes of Nuxt UI components the app does not use.
// In Chromium, on the built app: they still look like Nuxt UI's buttons, and the keyboard still works them.

/** Computed styles that show whether the button's classes found their rules in the stylesheet. */
function looks(button: Locator) {
  return button.evaluate((element) => {
    const style = getComputedStyle(element)
    return { fontSize: style.fontSize, radius: style.borderTopLeftRadius, paddingLeft: style.paddingLeft, alignItems: style.alignItems, background: style.backgroundColor }
  })
}

test.describe('opening a chat with cheaper buttons', () => {
  test('a tool card\'s details toggle is styled like Nuxt UI\'s xs ghost button and opens from the keyboard', async ({ page }) => {
    // the warm-ups that run in tasks of their own at start-up fail loudly if they fail
    const errors: string[] = []
    page.on('pageerror', error => errors.push(error.message))
    page.on('console', message => message.type() === 'error' && errors.push(message.text()))
    const chat = longChat('e2e-open-first', 40)
    await openApp(page)
    await importChat(page, chat)
    await openApp(page, `/?thread=${chat.thread.id}`)
    const card = page.getByTestId('tool-card').last()
    await expect(card).toBeVisible({ timeout: 20_000 })
    const toggle = card.getByTestId('tool-details-toggle')
    // text-xs, rounded-md, px-2, items-center: the rules of UButton's size xs are in the stylesheet
    expect(await looks(toggle)).toMatchObject({ fontSize: '12px', radius: '6px', paddingLeft: '8px', alignItems: 'center' })
    await toggle.focus()
    await page.keyboard.press('Enter')
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(card.getByTestId('tool-details')).toBeVisible()
    await expect(card.getByTestId('tool-arguments')).toContainText('"expression"')
    await expect(toggle).toBeFocused()
    await page.keyboard.press('Space')
    await expect(card.getByTestId('tool-details')).toHaveCount(0)
    expect(errors).toEqual([])
  })

  test('a chat\'s delete button turns into a red Confirm under the keyboard focus, and a second press deletes it', async ({ page }) => {
    const chat = longChat('e2e-open-first-delete', 8)
    await openApp(page)
    await importChat(page, chat)
    await openApp(page, `/?thread=${chat.thread.id}`)
    const row = page.locator(`[data-testid="thread-item"][data-thread-id="${chat.thread.id}"]`)
    const remove = row.getByTestId('thread-delete')
    await expect(remove).toHaveAttribute('aria-label', `Delete “${chat.thread.title}”`)
    const ghost = await looks(remove)
    expect(ghost).toMatchObject({ radius: '6px', background: 'rgba(0, 0, 0, 0)' })
    await remove.focus()
    await page.keyboard.press('Enter')
    await expect(remove).toHaveText('Confirm')
    await expect(remove).toBeFocused()
    // solid error: a filled red background (bg-error), not the ghost's transparent one
    const solid = await looks(remove)
    expect(solid.background).not.toBe('rgba(0, 0, 0, 0)')
    await page.keyboard.press('Enter')
    await expect(row).toHaveCount(0)
  })
})
