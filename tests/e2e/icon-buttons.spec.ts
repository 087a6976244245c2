// Every button that shows only an icon says what it does: a name read out by screen readers and a tooltip on hover.
import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'

interface IconOnlyButton { html: string, name: string, title: string }

/** The visible buttons and button-like links on the page whose only content is an icon (no visible text). */
function iconOnlyButtons(page: Page): Promise<IconOnlyButton[]> {
  return page.evaluate(() => {
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect()
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden'
    }
    const visibleText = (element: Element) => [...element.querySelectorAll('*'), element]
      .flatMap(node => [...node.childNodes].filter(child => child.nodeType === Node.TEXT_NODE && child.textContent!.trim() && node instanceof Element && visible(node) && !node.closest('.sr-only')))
      .length > 0
    // A dialog's own × (Nuxt UI's, named "Close") is the one icon every user already knows: it is named, not titled.
    const dialogClose = (element: Element) => element.closest('[role="dialog"]') !== null && element.getAttribute('aria-label') === 'Close'
    return [...document.querySelectorAll('button, a[href], [role="button"]')]
      .filter(element => visible(element) && !visibleText(element) && !dialogClose(element) && element.querySelector('svg, [class*="i-"], span.iconify'))
      .map(element => ({
        html: element.outerHTML.slice(0, 160),
        name: (element.getAttribute('aria-label') ?? element.getAttribute('aria-labelledby') ?? '').trim(),
        title: (element.getAttribute('title') ?? '').trim(),
      }))
  })
}

async function expectNamedWithTooltips(page: Page, atLeast: number) {
  const buttons = await iconOnlyButtons(page)
  expect(buttons.length).toBeGreaterThanOrEqual(atLeast)
  expect(buttons.filter(button => !button.name || !button.title)).toEqual([])
}

test.describe('icon-only buttons', () => {
  test('the header, a chat with a tool card and Settings: each icon button has a name and a tooltip', async ({ page }) => {
    await openApp(page)
    await expect(page.getByTestId('settings-open')).toBeVisible()
    await expect(page.getByTestId('settings-open')).toHaveAttribute('title', 'Settings')
    await expectNamedWithTooltips(page, 6)

    await sendMessage(page, 'What is 12*7?')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]')).toBeVisible()
    await lastAssistant(page).hover()
    await expectNamedWithTooltips(page, 8)

    await page.getByTestId('settings-open').click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await expectNamedWithTooltips(page, 1)
  })

  test('on a phone the provider badge and the menu button explain themselves', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await openApp(page)
    await expect(page.getByTestId('provider-badge')).toHaveAttribute('title', /Scripted demo.*Settings/)
    await expect(page.getByRole('button', { name: 'Open chats' })).toHaveAttribute('title', 'Open chats')
    await expectNamedWithTooltips(page, 5)
  })
})
