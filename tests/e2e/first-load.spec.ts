// The first screen fetches what it runs, and the rest when it is first used (issue 11, a small first load).
// Each check names code by a string it contains, so it holds whatever the build calls its chunks.
import { gzipSync } from 'node:zlib'
import { expect, test, type Page } from '@playwright/test'
import { openApp, openSeededChat, sendMessage, waitForIdle } from './helpers'
import { longChat } from './support/seed-chat'

/** The first screen's JavaScript, gzip-compressed, as `bench/ui/first-load-bytes.ts` counts it. */
const FIRST_LOAD_BUDGET_KB = 250

const MCP_CLIENT = /mcp-session-id/i
const MEMORY_DATABASE = 'Cannot have an array key path in an object store with a key generator'
const ARGUMENT_VALIDATOR = 'Instance type '
// zod's full core (every string format, JWTs among them): the first screen's saved settings need only zod/mini's few checks
const FULL_ZOD = /["'`]\$ZodJWT["'`]/
// Reka's positioned layers (popover, menus) and what places them, with the CSS variable they set
const POPPER = '--reka-popper-available-width'
// Reka's toasts (their viewport sets it on a swipe); the toaster loads with the first toast
const TOASTER = '--reka-toast-swipe-move-x'
// English text of the audit log, in the part of the catalog the first screen leaves out (i18n/more)
const MORE_CATALOG = 'Keep runs for'

/** Records the text of every script the page fetches. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = []
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) void response.text().then(text => scripts.push(text), () => {})
  })
  return scripts
}

const loaded = (scripts: string[], marker: RegExp | string) =>
  scripts.some(text => (typeof marker === 'string' ? text.includes(marker) : marker.test(text)))

test.describe('first load', () => {
  test('the page asks the browser to fetch only its entry script, not every chunk it may need later', async ({ request }) => {
    const html = await (await request.get('/')).text()
    expect(html).toMatch(/<script type="module" src="\/_nuxt\/[^"]+\.js"/)
    expect(html).not.toContain('rel="prefetch"')
  })

  test(`the first screen's scripts weigh at most ${FIRST_LOAD_BUDGET_KB} KB gzip until it is ready for input`, async ({ page, request }) => {
    await openApp(page)
    // what was requested before the page marked itself ready (the service worker's script comes after, at idle)
    const paths = await page.evaluate(() => {
      const ready = performance.getEntriesByName('plugboard:ready', 'mark')[0]?.startTime ?? Infinity
      return [...new Set(performance.getEntriesByType('resource')
        .filter(entry => entry.startTime <= ready)
        .map(entry => new URL(entry.name).pathname)
        .filter(path => path.endsWith('.js')))]
    })
    expect(paths.length).toBeGreaterThan(0)
    let bytes = 0
    for (const path of paths) {
      const response = await request.get(path)
      expect(response.ok(), path).toBe(true)
      bytes += gzipSync(await response.body()).length
    }
    const kb = Math.round(bytes / 102.4) / 10
    expect(kb, `first load: ${kb} KB gzip of JavaScript in ${paths.length} files`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB)
  })

  test('the first screen fetches only its own part of the UI text; the rest comes once it is ready', async ({ page, request }) => {
    const scripts = recordScripts(page)
    await openApp(page)
    const beforeReady = await page.evaluate(() => {
      const ready = performance.getEntriesByName('plugboard:ready', 'mark')[0]?.startTime ?? Infinity
      return performance.getEntriesByType('resource').filter(entry => entry.startTime <= ready).map(entry => new URL(entry.name).pathname).filter(path => path.endsWith('.js'))
    })
    const texts = await Promise.all(beforeReady.map(async path => (await request.get(path)).text()))
    expect(texts.some(text => text.includes('Message Plugboard'))).toBe(true)
    expect(texts.filter(text => text.includes(MORE_CATALOG))).toEqual([])
    await expect.poll(() => loaded(scripts, MORE_CATALOG)).toBe(true)
  })

  test('the first screen loads no MCP client, full zod, in-memory database or argument validator; a tool run loads the validator', async ({ page }) => {
    const scripts = recordScripts(page)
    await openApp(page)
    await expect(page.getByTestId('composer-input')).toBeVisible()
    await expect.poll(() => scripts.length).toBeGreaterThan(0)
    expect(loaded(scripts, MCP_CLIENT)).toBe(false)
    expect(loaded(scripts, FULL_ZOD)).toBe(false)
    expect(loaded(scripts, MEMORY_DATABASE)).toBe(false)
    expect(loaded(scripts, ARGUMENT_VALIDATOR)).toBe(false)

    // The demo model calls the calculator: the executor and its validator load then, and the answer arrives.
    await sendMessage(page, 'What is 12*7?')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('84')
    await expect.poll(() => loaded(scripts, ARGUMENT_VALIDATOR)).toBe(true)
    expect(loaded(scripts, MCP_CLIENT)).toBe(false)
  })

  test('opening a chat whose tool calls have finished loads no argument validator: only a card waiting for approval needs it', async ({ page }) => {
    // 40 messages, 10 calculator calls, all done: the cards show their results and offer no form
    const chat = longChat('e2e-cards-no-validator', 40)
    const scripts = recordScripts(page)
    await openSeededChat(page, chat)
    await expect(page.getByTestId('tool-card').last()).toBeVisible()
    await expect(page.getByTestId('tool-card').last()).toContainText('Calculator')
    await expect.poll(() => scripts.length).toBeGreaterThan(0)
    expect(loaded(scripts, ARGUMENT_VALIDATOR)).toBe(false)
  })

  test('the first screen loads no popover, menu or toast code; the tools button loads it on its first press and opens the tool list', async ({ page }) => {
    const scripts = recordScripts(page)
    await openApp(page)
    await expect(page.getByTestId('tool-popover-trigger')).toBeVisible()
    await expect.poll(() => scripts.length).toBeGreaterThan(0)
    expect(loaded(scripts, POPPER)).toBe(false)
    expect(loaded(scripts, TOASTER)).toBe(false)

    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-popover-content')).toBeVisible()
    await expect(page.getByTestId('tool-switch-calculate')).toBeVisible()
    await expect(page.getByTestId('tool-popover-trigger')).toHaveAttribute('aria-expanded', 'true')
    await expect.poll(() => loaded(scripts, POPPER)).toBe(true)
    // it closes with Escape and opens again like any popover
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('tool-popover-content')).toBeHidden()
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-popover-content')).toBeVisible()
  })

  test('a saved MCP server loads the MCP client (and full zod with it) at start-up, and the server shows in Settings', async ({ page }) => {
    await page.addInitScript(() => {
      localStorage.setItem('plugboard:mcp-servers:v1', JSON.stringify([{ id: 'saved-1', name: 'Saved', url: 'http://127.0.0.1:9/mcp' }]))
    })
    const scripts = recordScripts(page)
    await openApp(page)
    await expect.poll(() => loaded(scripts, MCP_CLIENT), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => loaded(scripts, FULL_ZOD)).toBe(true)
    await page.getByTestId('settings-open').click()
    await expect(page.locator('[data-testid="mcp-server"][data-name="Saved"]')).toBeVisible()
  })
})
