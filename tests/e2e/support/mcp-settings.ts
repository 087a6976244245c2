// What the MCP specs do in Settings and in the chat alike: add a server, and wait for a reply whose MCP calls the
// app asks about first (an MCP tool's policy is `ask` by default).
import { expect } from '@playwright/test'
import type { Locator, Page } from '@playwright/test'
import { waitForIdle } from '../helpers'

/**
 * Adds a server in Settings → MCP servers (opening Settings when it is closed) and returns its row; waits until it
 * is connected unless `connected` is false (a server that asks for a sign-in first).
 */
export async function addMcpServer(page: Page, name: string, url: string, options: { connected?: boolean } = {}): Promise<Locator> {
  if (!(await page.getByTestId('mcp-servers').isVisible())) await page.getByTestId('settings-open').click()
  await page.getByTestId('mcp-name').fill(name)
  await page.getByTestId('mcp-url').fill(url)
  await page.getByTestId('mcp-add').click()
  const row = page.locator(`[data-testid="mcp-server"][data-name="${name}"]`)
  if (options.connected !== false) await expect(row).toHaveAttribute('data-status', 'connected', { timeout: 15_000 })
  return row
}

/** Waits for the reply, allowing each tool call the app asks about on the way. */
export async function waitForReplyAllowingCalls(page: Page): Promise<void> {
  const allow = page.getByTestId('approval-allow-once')
  await expect.poll(async () => {
    if (await allow.first().isVisible().catch(() => false)) await allow.first().click()
    return page.locator('main').getAttribute('data-streaming')
  }, { timeout: 20_000 }).toBe('false')
  await waitForIdle(page)
}

/**
 * Presses a Sign in button and waits until its popup has been to the server's authorization page, come back to the
 * app's callback and closed. The popup can close before the click's own wait ends (it takes half a second on a
 * quiet machine), so its close is watched from the moment it opens: waiting after the click missed that close.
 */
export async function signInThroughPopup(page: Page, button: Locator): Promise<void> {
  const closed = page.waitForEvent('popup').then(async (popup) => {
    if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 15_000 })
  })
  await button.click()
  await closed
}
