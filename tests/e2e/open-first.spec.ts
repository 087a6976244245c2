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

test.describe('the composer, a plain textarea with Nuxt UI\'s classes', () => {
  test('grows with its text up to 12 lines, shrinks when sent, and Send is a primary button enabled by text', async ({ page }) => {
    await openApp(page)
    const input = page.getByTestId('composer-input')
    const send = page.getByTestId('send-button')
    await expect(send).toBeDisabled()
    const oneLine = (await input.boundingBox())!.height
    await input.click()
    await page.keyboard.type('first line')
    await expect(send).toBeEnabled()
    for (const line of ['second line', 'third line']) {
      await page.keyboard.press('Shift+Enter')
      await page.keyboard.type(line)
    }
    await expect.poll(async () => (await input.boundingBox())!.height).toBeGreaterThan(oneLine * 2)
    for (let line = 0; line < 20; line++) {
      await page.keyboard.press('Shift+Enter')
      await page.keyboard.type(`line ${line}`)
    }
    // capped at 12 lines: the box scrolls instead of growing (grown by CSS here, by Nuxt UI's rows elsewhere)
    const lineHeight = await input.evaluate(element => Number.parseFloat(getComputedStyle(element).lineHeight))
    await expect.poll(async () => (await input.boundingBox())!.height).toBeGreaterThan(11 * lineHeight)
    expect((await input.boundingBox())!.height).toBeLessThan(13 * lineHeight)
    expect(await input.evaluate(element => element.scrollHeight > element.clientHeight)).toBe(true)
    // the Send button has the primary colour's rules from the stylesheet
    expect(await send.evaluate(element => getComputedStyle(element).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)')
    await page.keyboard.press('Enter')
    await expect(input).toHaveValue('')
    await expect.poll(async () => (await input.boundingBox())!.height).toBe(oneLine)
  })
})
