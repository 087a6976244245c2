import { expect, test } from '@playwright/test'
import type { FrameLocator, Locator, Page } from '@playwright/test'
import { newAppContext, openApp, sendMessage } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { addMcpServer, waitForReplyAllowingCalls } from './support/mcp-settings'
import { storedRows } from './support/stored-rows'

// MCP Apps in real Chromium: a real MCP server (the SDK's) whose tools bring HTML interfaces built on the
// extension's App class, the built app relaying to it, and the demo model calling the tool the message names.
// The page is on 127.0.0.1, so the apps' sandbox origin is localhost on the same port.
let app: AppInstance
let server: McpTestServer

test.beforeAll(async () => {
  server = await startMcpTestServer({ cors: false, apps: true })
  app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${server.port}` })
})

test.afterAll(async () => {
  await app?.stop()
  await server?.close()
})

async function addAppsServer(page: Page) {
  await addMcpServer(page, 'Apps', server.url)
  await page.getByTestId('settings-cancel').click()
}

/** Sends the message and allows the model's calls (MCP tools ask first by default). */
async function callTool(page: Page, message: string) {
  await sendMessage(page, message)
  await waitForReplyAllowingCalls(page)
}

/**
 * The CSP violations of the chat page itself. The apps' frames report their own (the hostile app's blocked fetch,
 * the eval probe of its bundle): those are the sandbox doing its job, not the page's policy failing.
 */
async function watchPageCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  page.on('console', (message) => {
    if (message.text().startsWith('Page CSP violation')) violations.push(message.text())
  })
  await page.addInitScript(() => {
    if (window.top !== window) return
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Page CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`)
    })
  })
  return violations
}

function appOf(card: Locator): FrameLocator {
  return card.frameLocator('[data-testid="mcp-app-frame"]').frameLocator('iframe')
}

async function frameHeight(card: Locator): Promise<number> {
  return (await card.getByTestId('mcp-app-frame').boundingBox())?.height ?? 0
}

test.describe('MCP Apps', () => {
  test('an app renders sandboxed on the sandbox origin, calls a tool with approval, sends a message, resizes, follows the theme, goes full screen and survives a reload', async ({ page }) => {
    // one story from the first call to the reload: longer than a single check
    test.setTimeout(120_000)
    const violations = await watchPageCspViolations(page)
    const pageErrors: string[] = []
    page.on('pageerror', error => pageErrors.push(error.message))
    await openApp(page, app.url)
    await addAppsServer(page)
    await callTool(page, 'call apps__show_counter with {"label": "mine"}')

    const card = page.locator('[data-testid="tool-card"][data-tool="apps__show_counter"]')
    const frame = card.getByTestId('mcp-app-frame')
    const sandboxOrigin = app.url.replace('127.0.0.1', 'localhost')
    await expect(frame).toHaveAttribute('src', new RegExp(`^${sandboxOrigin}/_mcp-apps/sandbox\\?host=`))
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin')
    const counter = appOf(card)
    await expect(counter.locator('iframe, h1').first()).toBeVisible({ timeout: 15_000 })
    await expect(counter.locator('#count')).toHaveText('7')
    await expect(counter.locator('#input')).toHaveText('{"label":"mine"}')
    await expect(counter.locator('#theme')).toHaveText('light')
    // the app's own frame: scripts only, an origin of its own (no access to the page's storage)
    const inner = card.frameLocator('[data-testid="mcp-app-frame"]').locator('iframe')
    await expect(inner).toHaveAttribute('sandbox', 'allow-scripts')

    await page.screenshot({ path: test.info().outputPath('mcp-app-desktop-light.png') })

    // its button calls an app-only tool of its server: the tool's policy (Ask) shows the approval first
    await counter.locator('#increment').click()
    const approval = card.getByTestId('mcp-app-approval')
    await expect(approval).toContainText('apps__increment')
    // clicked the moment it shows: the list has just scrolled to keep its bottom in view of the grown card, and its
    // rows take clicks all the same
    await approval.getByTestId('mcp-app-allow').click()
    await expect(approval).toHaveCount(0)
    await expect(counter.locator('#count')).toHaveText('8', { timeout: 15_000 })

    // a tool the server shows to the model only is refused
    await counter.locator('#forbidden').click()
    await expect(counter.locator('#status')).toContainText('Refused: The app may not call secret_admin')

    // links: a script link is refused without a word to the user; an https link opens once the user agrees, named
    // by its origin, in a page that gets no handle on this one
    await counter.locator('#script-link').click()
    await expect(counter.locator('#status')).toHaveText('Script link refused')
    await expect(card.getByTestId('mcp-app-link')).toHaveCount(0)
    await page.context().route('https://example.com/**', route => route.fulfill({ contentType: 'text/html', body: '<title>Docs</title>' }))
    await counter.locator('#link').click()
    const confirm = card.getByTestId('mcp-app-link')
    await expect(confirm).toContainText('The app wants to open a page on https://example.com')
    const popup = page.context().waitForEvent('page')
    await confirm.getByTestId('mcp-app-link-open').click()
    await expect(confirm).toHaveCount(0)
    const opened = await popup
    await expect.poll(() => opened.url()).toBe('https://example.com/docs')
    expect(await opened.evaluate(() => window.opener)).toBeNull()
    await opened.close()
    await expect(counter.locator('#status')).toHaveText('Link opened')

    // size changes resize the frame
    const before = await frameHeight(card)
    await counter.locator('#grow').click()
    await expect.poll(() => frameHeight(card)).toBeGreaterThan(before + 300)

    // the theme follows the page
    await page.getByTestId('color-mode').click()
    await expect(counter.locator('#theme')).toHaveText('dark')
    await page.screenshot({ path: test.info().outputPath('mcp-app-desktop-dark.png') })

    // full screen at the app's request (the browser's own), back inline with the card's button
    await counter.locator('#fullscreen').click()
    await expect(card.getByTestId('mcp-app')).toHaveAttribute('data-display-mode', 'fullscreen')
    await expect(counter.locator('#mode')).toHaveText('fullscreen')
    const viewport = page.viewportSize()!
    await expect.poll(async () => (await frame.boundingBox())?.width ?? 0).toBeGreaterThan(viewport.width - 40)
    await page.screenshot({ path: test.info().outputPath('mcp-app-desktop-fullscreen.png') })
    await card.getByTestId('mcp-app-fullscreen').click()
    await expect(card.getByTestId('mcp-app')).toHaveAttribute('data-display-mode', 'inline')
    await expect(counter.locator('#mode')).toHaveText('inline')

    // ui/message adds the user's message to the chat, and the model answers it
    await counter.locator('#message').click()
    await expect(page.locator('[data-testid="message"][data-role="user"]').filter({ hasText: 'Hello from the counter app' })).toHaveCount(1)
    await expect(counter.locator('#status')).toHaveText('Message sent')
    await waitForReplyAllowingCalls(page)

    // after a reload the card shows the app again, from the stored row
    await page.reload()
    await openApp(page, page.url())
    // (the demo model answered the app's message by calling the counter again: the first card is the one above)
    const again = page.locator('[data-testid="tool-card"][data-tool="apps__show_counter"]').first()
    // the state the user left: the count the app's own call brought it to, not the first result
    await expect(appOf(again).locator('#count')).toHaveText('8', { timeout: 15_000 })
    await expect(appOf(again).locator('#input')).toHaveText('{"label":"mine"}')

    // the app's own tool call is in the audit log, marked as the app's, with the user's decision
    await page.getByTestId('audit-link').click()
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible()
    const logged = page.locator('[data-testid="audit-row"][data-tool="apps__increment"]')
    await expect(logged).toHaveAttribute('data-requested-by', 'app:apps__show_counter')
    await expect(logged).toHaveAttribute('data-status', 'done')
    await expect(logged.getByTestId('audit-requested-by')).toHaveText('asked by the app of apps__show_counter')

    expect(violations).toEqual([])
    expect(pageErrors).toEqual([])
  })

  test('a hostile app is contained: no parent, no top navigation, no popup, no storage, no undeclared network, no camera or location, no forbidden tool, bounded size', async ({ page }) => {
    test.setTimeout(60_000)
    const violations = await watchPageCspViolations(page)
    const pageErrors: string[] = []
    page.on('pageerror', error => pageErrors.push(error.message))
    await openApp(page, app.url)
    await addAppsServer(page)
    await callTool(page, 'call apps__show_hostile')
    const url = page.url()
    const card = page.locator('[data-testid="tool-card"][data-tool="apps__show_hostile"]')
    const report = appOf(card).locator('#report')
    await expect(report).toContainText('done', { timeout: 20_000 })
    await expect(report).toContainText('top navigation:')
    await expect(report).toContainText('parent document: blocked')
    await expect(report).toContainText('popup: blocked')
    await expect(report).toContainText('storage: blocked')
    await expect(report).toContainText('undeclared fetch: blocked')
    await expect(report).toContainText('secret_admin: refused')
    // it asked for the camera, the microphone and the location: told in the protocol that none is granted, and
    // none works; the user reads on the card what it asked for
    await expect(report).toContainText('granted: {}')
    await expect(report).toContainText('camera: blocked')
    await expect(report).toContainText('location: blocked')
    await expect(card.getByTestId('mcp-app-permissions')).toHaveText('This app asked for the camera, the microphone, your location. Apps get no such access here: it works without them or not at all.')
    // a storm of huge sizes: the frame stops at the cap
    await expect.poll(() => frameHeight(card)).toBe(1600)
    expect(page.url()).toBe(url)
    await expect(page.getByTestId('composer-input')).toBeVisible()
    // nothing reached the chat: no message, no approval asked of the user, no error on the page
    // (read from the store: the list on screen is virtual, and the tall frame pushes the question out of it)
    expect((await storedRows(page)).filter(row => row.role === 'user').map(row => row.content)).toEqual(['call apps__show_hostile'])
    await expect(card.getByTestId('mcp-app-approval')).toHaveCount(0)
    expect(violations).toEqual([])
    expect(pageErrors).toEqual([])
  })

  test('with its server removed, the app shows again as it was, display-only, and its calls are refused', async ({ page }) => {
    test.setTimeout(60_000)
    await openApp(page, app.url)
    await addAppsServer(page)
    await callTool(page, 'call apps__show_counter with {"label": "gone"}')
    await page.getByTestId('settings-open').click()
    await page.locator('[data-testid="mcp-server"][data-name="Apps"]').getByTestId('mcp-server-remove').click()
    await expect(page.locator('[data-testid="mcp-server"][data-name="Apps"]')).toHaveCount(0)
    await page.getByTestId('settings-cancel').click()

    await page.reload()
    await openApp(page, page.url())
    const card = page.locator('[data-testid="tool-card"][data-tool="apps__show_counter"]')
    await expect(card.getByTestId('mcp-app-display-only')).toHaveText('Apps is not connected: the app is shown as it was, and cannot run tools.')
    const counter = appOf(card)
    await expect(counter.locator('#count')).toHaveText('7', { timeout: 15_000 })
    await expect(counter.locator('#input')).toHaveText('{"label":"gone"}')
    await counter.locator('#increment').click()
    await expect(counter.locator('#status')).toHaveText('Refused: Apps is not connected, so the app cannot run tools now.')
    await expect(card.getByTestId('mcp-app-approval')).toHaveCount(0)
  })

  test('phone screenshots, light and dark', async ({ browser }) => {
    test.setTimeout(60_000)
    const context = await newAppContext(browser, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
    const page = await context.newPage()
    await openApp(page, app.url)
    await addAppsServer(page)
    await callTool(page, 'call apps__show_counter with {"label": "phone"}')
    const card = page.locator('[data-testid="tool-card"][data-tool="apps__show_counter"]')
    await expect(appOf(card).locator('#count')).toHaveText('7', { timeout: 15_000 })
    await card.scrollIntoViewIfNeeded()
    await page.screenshot({ path: test.info().outputPath('mcp-app-phone-light.png') })
    await page.getByTestId('color-mode').click()
    await expect(appOf(card).locator('#theme')).toHaveText('dark')
    await page.screenshot({ path: test.info().outputPath('mcp-app-phone-dark.png') })
    await context.close()
  })
})
