import { expect, test, type Page } from '@playwright/test'
import { demoMarkdownReply } from '../../server/utils/demo-model/demo-replies'
import { lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'
import { seriousViolations } from './support/axe'

const GREET = 'function greet(name: string): string {\n  return `Hello, ${name}!`\n}'

/**
 * Waits until the clipboard holds `text`: a click returns before the page's clipboard write has finished, so a read
 * straight after it can still see what the previous copy wrote.
 */
async function expectClipboard(page: Page, text: string) {
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 10_000 }).toBe(text)
}

/** Asks the demo model for its markdown sample (a ts and a bash code block) and waits for the whole reply. */
async function askForMarkdown(page: Page) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await openApp(page)
  await sendMessage(page, 'markdown')
  await waitForIdle(page)
  await expect(lastAssistant(page).locator('button[data-code-copy]')).toHaveCount(2)
}

test.describe('copy', () => {
  test('copies a reply as its markdown source, a question as typed, and a code block as its bare code', async ({ page }) => {
    await askForMarkdown(page)
    const reply = lastAssistant(page)

    await reply.hover()
    const copyReply = reply.getByTestId('message-copy')
    await expect(copyReply).toBeVisible()
    await copyReply.click()
    await expect(reply.getByTestId('message-copy-outcome')).toHaveText('Copied')
    await expectClipboard(page, demoMarkdownReply())
    await expect(page.getByTestId('copy-announcer')).toHaveText('Message copied')
    await expect(reply.getByTestId('message-copy-outcome')).toHaveCount(0, { timeout: 10_000 })

    const question = page.locator('[data-testid="message"][data-role="user"]').last()
    await question.hover()
    await question.getByTestId('message-copy').click()
    await expectClipboard(page, 'markdown')
    await expect(question.getByTestId('message-copy-outcome')).toHaveText('Copied')
    await page.screenshot({ path: '/tmp/copy-user-light.png' })

    // The code is highlighted (token spans) by now or soon; the copy is the same either way.
    const block = reply.locator('.chat-code-block').first()
    await block.hover()
    const copyCode = block.locator('button[data-code-copy]')
    await copyCode.click()
    await expect(copyCode).toHaveText('Copied')
    await expectClipboard(page, GREET)
    await expect(copyCode).not.toHaveAttribute('data-copied', /.*/, { timeout: 10_000 })

    await reply.locator('.chat-code-block').nth(1).hover()
    await reply.locator('.chat-code-block').nth(1).locator('button[data-code-copy]').click()
    await expectClipboard(page, 'npm start')
  })

  test('works from the keyboard alone: Tab reaches each Copy button, which shows itself, and Enter copies', async ({ page }) => {
    await askForMarkdown(page)
    const reply = lastAssistant(page)
    // Shift+Tab from the first code block lands on its Copy button.
    await reply.locator('pre').first().focus()
    await page.keyboard.press('Shift+Tab')
    const copyCode = reply.locator('button[data-code-copy]').first()
    await expect(copyCode).toBeFocused()
    await expect(copyCode).toHaveCSS('opacity', '1')
    await page.keyboard.press('Enter')
    await expect(copyCode).toHaveText('Copied')
    await expectClipboard(page, GREET)

    // Tab on from the last code block reaches the reply's own Copy.
    await reply.locator('pre').last().focus()
    const copyReply = reply.getByTestId('message-copy')
    for (let press = 0; press < 10 && !(await copyReply.evaluate(element => element === document.activeElement)); press++) await page.keyboard.press('Tab')
    await expect(copyReply).toBeFocused()
    await expect(reply.getByTestId('message-actions')).toHaveCSS('opacity', '1')
    await page.keyboard.press('Enter')
    await expect(reply.getByTestId('message-copy-outcome')).toHaveText('Copied')
    await expectClipboard(page, demoMarkdownReply())
  })

  test('says Copy failed when the browser refuses the clipboard', async ({ page }) => {
    await askForMarkdown(page)
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))
    })
    const reply = lastAssistant(page)
    await reply.hover()
    await reply.getByTestId('message-copy').click()
    await expect(reply.getByTestId('message-copy-outcome')).toHaveText('Copy failed')
    const copyCode = reply.locator('button[data-code-copy]').first()
    await reply.locator('.chat-code-block').first().hover()
    await copyCode.click()
    await expect(copyCode).toHaveText('Copy failed')
  })

  test('has no serious axe violations with the Copy buttons showing, in light and dark mode, and looks right on a phone', async ({ page }) => {
    await askForMarkdown(page)
    const reply = lastAssistant(page)
    await reply.hover()
    await reply.locator('.chat-code-block').first().hover()
    await reply.locator('button[data-code-copy]').first().click()
    await expect(reply.locator('button[data-code-copy]').first()).toHaveText('Copied')
    await page.screenshot({ path: '/tmp/copy-desktop-light.png' })
    expect(await seriousViolations(page)).toEqual([])
    await page.getByTestId('color-mode').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    await reply.getByTestId('message-copy').focus()
    await page.keyboard.press('Enter')
    await expect(reply.getByTestId('message-copy-outcome')).toHaveText('Copied')
    await page.screenshot({ path: '/tmp/copy-desktop-dark.png' })
    expect(await seriousViolations(page)).toEqual([])
  })
})

test.describe('copy on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

  test('shows the Copy buttons without hover', async ({ page }) => {
    await askForMarkdown(page)
    const reply = lastAssistant(page)
    await expect(reply.getByTestId('message-actions')).toHaveCSS('opacity', '1')
    await expect(reply.locator('button[data-code-copy]').first()).toHaveCSS('opacity', '1')
    await reply.locator('.chat-code-block').first().scrollIntoViewIfNeeded()
    await page.screenshot({ path: '/tmp/copy-phone-light.png' })
    await reply.locator('button[data-code-copy]').first().tap()
    await expectClipboard(page, GREET)
    await page.evaluate(() => document.documentElement.classList.add('dark'))
    await reply.getByTestId('message-copy').scrollIntoViewIfNeeded()
    await page.screenshot({ path: '/tmp/copy-phone-dark.png' })
  })
})
