import { expect, type Page } from '@playwright/test'

export const FAKE_URL = `http://127.0.0.1:${process.env.FAKE_OPENROUTER_PORT ?? 3124}`
export const PROXY_APP_URL = `http://127.0.0.1:${process.env.E2E_PROXY_PORT ?? 3125}`

/** Opens the app and waits until it is hydrated and the tool plugins are loaded. */
export async function openApp(page: Page, url = '/') {
  await page.goto(url, { waitUntil: 'commit' })
  await waitForReady(page)
}

/**
 * Waits until the app is hydrated and its tool plugins are loaded. Polled from outside the page: the app may
 * reload once at start-up (to allow a newly chosen endpoint in its CSP), which would break an in-page wait.
 */
export async function waitForReady(page: Page) {
  await expect.poll(
    () => page.evaluate(() => {
      // a page that is reloading itself (to allow a new endpoint: connect-permission) is not the page to use
      const state = window as unknown as { __plugboardReady?: boolean, __plugboardReloading?: boolean }
      return state.__plugboardReady === true && state.__plugboardReloading !== true
    }).catch(() => false),
    { timeout: 20_000 },
  ).toBe(true)
}

/** Types into the composer, presses Enter, and waits until the message is shown in the thread. */
export async function sendMessage(page: Page, text: string) {
  const userMessages = page.locator('[data-testid="message"][data-role="user"]')
  const before = await userMessages.count()
  const input = page.getByTestId('composer-input')
  await input.fill(text)
  await input.press('Enter')
  await expect(userMessages).toHaveCount(before + 1, { timeout: 10_000 })
}

/** The last assistant message element. */
export function lastAssistant(page: Page) {
  return page.locator('[data-testid="message"][data-role="assistant"]').last()
}

/**
 * Waits until the reply (and every tool run) is over: the last message is a settled assistant reply, and then the
 * page says nothing is streaming (a step's reply is settled while the loop still runs tools and the next step).
 */
export async function waitForIdle(page: Page) {
  const last = page.locator('[data-testid="message"]').last()
  await expect(last).toHaveAttribute('data-role', 'assistant', { timeout: 20_000 })
  await expect(last).toHaveAttribute('data-status', /complete|stopped|error|interrupted/, { timeout: 20_000 })
  await expect(page.locator('main')).toHaveAttribute('data-streaming', 'false', { timeout: 20_000 })
  await expect(page.getByTestId('stop-button')).toHaveCount(0)
  // A reply that arrived in a burst is shown over a few frames.
  await expect(page.locator('[data-rendering]')).toHaveCount(0, { timeout: 20_000 })
}

export async function clearFakeRequests() {
  await fetch(`${FAKE_URL}/__requests`, { method: 'DELETE' })
}

export async function fakeRequests(): Promise<Array<{ body: Record<string, unknown>, headers: Record<string, string> }>> {
  const response = await fetch(`${FAKE_URL}/__requests`)
  return response.json()
}
