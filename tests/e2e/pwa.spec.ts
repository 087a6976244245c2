// The app installs as a web app and opens offline: the manifest, the service worker, the app shell served from its
// cache with its Content-Security-Policy, stored chats readable offline, sending refused plainly with the draft kept,
// and the prompt that a deploy shows.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, expect, test, type Page } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle, waitForReady, watchCspViolations } from './helpers'
import { storedUserMessages } from './support/stored-rows'

/** Set to a folder to keep screenshots of the offline notice and the update toast (desktop and phone, light and dark). */
const SHOTS_DIR = process.env.PWA_SHOTS_DIR

async function shoot(page: Page, name: string) {
  if (!SHOTS_DIR) return
  mkdirSync(SHOTS_DIR, { recursive: true })
  for (const [size, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize(viewport)
      await page.emulateMedia({ colorScheme })
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${colorScheme}\\b`))
      await page.screenshot({ path: `${SHOTS_DIR}/${name}-${size}-${colorScheme}.png` })
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Waits until the service worker controls the page and the app's page is in its cache (ready for offline use). */
async function waitForOfflineReady(page: Page) {
  await expect.poll(() => page.evaluate(async () => {
    await navigator.serviceWorker.ready
    const shell = await (await caches.open('plugboard-app-shell')).match('/')
    return Boolean(navigator.serviceWorker.controller) && Boolean(shell)
  }), { timeout: 30_000 }).toBe(true)
}

// The other specs run without a service worker (playwright.config.ts); these are about it.
test.use({ serviceWorkers: 'allow' })

test.describe('installable app', () => {
  test('the manifest is JSON with the app\'s name, icons and colours, the icons load, and /sw.js is JavaScript', async ({ request }) => {
    const manifestResponse = await request.get('/manifest.webmanifest')
    expect(manifestResponse.status()).toBe(200)
    expect(manifestResponse.headers()['content-type']).toContain('application/manifest+json')
    const manifest = await manifestResponse.json()
    expect(manifest).toMatchObject({ name: 'Plugboard', short_name: 'Plugboard', start_url: '/', scope: '/', display: 'standalone' })
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i)
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i)
    const sizes = manifest.icons.map((icon: { sizes: string, purpose: string }) => `${icon.sizes} ${icon.purpose}`)
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']))
    for (const icon of manifest.icons as Array<{ src: string }>) {
      const image = await request.get(icon.src)
      expect(image.status()).toBe(200)
      expect(image.headers()['content-type']).toBe('image/png')
      expect((await image.body()).subarray(1, 4).toString()).toBe('PNG')
    }

    const worker = await request.get('/sw.js')
    expect(worker.status()).toBe(200)
    expect(worker.headers()['content-type']).toMatch(/javascript/)
    expect(worker.headers()['cache-control']).toBe('no-cache')
    expect(await worker.text()).toContain('precacheAndRoute')

    const page = await request.get('/')
    expect(await page.text()).toContain('<link rel="manifest" href="/manifest.webmanifest">')
  })

  test('the first visit downloads each build file once: the worker keeps what the page already loaded from the browser\'s cache', async ({ page, baseURL }) => {
    // The server's side of the first visit, through a proxy that reads each request line: the page's own requests and
    // the worker's precache downloads alike (Playwright's routing would turn the browser's HTTP cache off).
    const app = new URL(baseURL!)
    const requested: string[] = []
    const proxy = createServer((client) => {
      const upstream = connect(Number(app.port), app.hostname)
      client.on('data', chunk => requested.push(...(chunk.toString('latin1').match(/^GET \S+/gm) ?? []).map(line => line.slice(4))))
      client.pipe(upstream).pipe(client)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
    })
    await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = proxy.address() as AddressInfo
      await openApp(page, `http://127.0.0.1:${port}/`)
      const precached = await page.evaluate(async () => [...(await (await fetch('/sw.js')).text()).matchAll(/url:"([^"]+)"/g)].map(match => match[1]!))
      await expect.poll(() => page.evaluate(async () => {
        const name = (await caches.keys()).find(key => key.includes('precache'))
        return name ? (await (await caches.open(name)).keys()).length : 0
      }), { timeout: 30_000 }).toBe(precached.length)
      const buildFiles = requested.filter(path => path.startsWith('/_nuxt/'))
      // every file of the build was downloaded (the first screen's and the rest), and none twice
      expect(precached.filter(url => url.startsWith('/_nuxt/') && !buildFiles.includes(url))).toEqual([])
      expect(buildFiles.filter((path, index) => buildFiles.indexOf(path) !== index)).toEqual([])
    }
    finally {
      proxy.close()
    }
  })

  test('Chromium finds the app installable: the worker controls the page, the manifest has no errors', async ({ baseURL }, testInfo) => {
    // A profile on disk: Chromium never offers to install from an incognito-like context (Playwright's default).
    const profile = mkdtempSync(join(tmpdir(), 'plugboard-pwa-'))
    const { launchOptions, ...device } = testInfo.project.use
    const context = await chromium.launchPersistentContext(profile, { ...device, ...launchOptions, baseURL, serviceWorkers: 'allow' })
    const page = context.pages()[0] ?? await context.newPage()
    const violations = await watchCspViolations(page)
    await openApp(page)
    await waitForOfflineReady(page)
    const cdp = await page.context().newCDPSession(page)
    const manifest = await cdp.send('Page.getAppManifest')
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/)
    expect(manifest.errors).toEqual([])
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    expect(installabilityErrors).toEqual([])
    expect(violations).toEqual([])
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  })

  test('offline, a reload opens the app under its CSP with a stored chat; sending says offline and keeps the draft; back online it sends', async ({ page, context }) => {
    test.slow()
    const violations = await watchCspViolations(page)
    const replies = page.locator('[data-testid="message"][data-role="assistant"]')
    await openApp(page)
    await sendMessage(page, 'Hello there')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText(/scripted demo/i)
    await waitForOfflineReady(page)

    await context.setOffline(true)
    const response = await page.reload({ waitUntil: 'commit' })
    expect(response!.fromServiceWorker()).toBe(true)
    // The kept page has the server's headers: the same strict policy applies offline.
    const policy = response!.headers()['content-security-policy']
    expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-/)
    await waitForReady(page)
    await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveText(['Hello there'])
    await expect(replies).toHaveCount(1)
    await expect(lastAssistant(page)).toContainText(/scripted demo/i)
    await expect(page.getByTestId('offline-notice')).toHaveAttribute('data-offline', 'true')
    await expect(page.getByTestId('offline-notice')).toContainText('Offline')

    const before = await storedUserMessages(page, 'Hello again')
    const input = page.getByTestId('composer-input')
    await input.fill('Hello again')
    await input.press('Enter')
    await expect(page.getByTestId('offline-notice')).toHaveText('You are offline — your message is kept; send when back online')
    await expect(input).toHaveValue('Hello again')
    expect(await storedUserMessages(page, 'Hello again')).toBe(before)
    await shoot(page, 'offline-send')
    expect(violations).toEqual([])

    // The policy is enforced, not only sent: an inline script the page did not bring is refused.
    const inlineRan = await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.__inlineRan = true'
      document.head.append(script)
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true
    })
    expect(inlineRan).toBe(false)
    // Both reports of the refusal, in either order: the page's `securitypolicyviolation` event and Chromium's own
    // console error (clearing the list after only one of them let the other fail the check below).
    await expect.poll(() => [
      violations.some(violation => violation.startsWith('Content Security Policy violation: script-src')),
      violations.some(violation => !violation.startsWith('Content Security Policy violation:')),
    ]).toEqual([true, true])
    expect(violations.every(violation => /script-src/.test(violation))).toBe(true)
    violations.length = 0

    await context.setOffline(false)
    await expect(page.getByTestId('offline-notice')).toHaveAttribute('data-offline', 'false')
    await page.getByTestId('send-button').click()
    await expect.poll(() => storedUserMessages(page, 'Hello again')).toBe(before + 1)
    await waitForIdle(page)
    await expect(replies).toHaveCount(2)
    await expect(lastAssistant(page)).toContainText(/scripted demo/i)
    await expect(input).toHaveValue('')
    expect(violations).toEqual([])
  })

  test('a new deploy shows "A new version is ready" with Reload, and Reload switches to it after the streaming reply', async ({ page }) => {
    test.slow()
    const violations = await watchCspViolations(page)
    await openApp(page)
    await waitForOfflineReady(page)
    const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)

    // A deploy, as the browser sees it: the registration's worker script changes. Playwright cannot rewrite the
    // browser's own fetch of /sw.js, so the new version is the same build under another address; the app meets it
    // as it meets a deploy found by its hourly check in a tab open for long (a worker it did not install itself).
    await page.evaluate(() => navigator.serviceWorker.register('/sw.js?build=next', { scope: '/' }))
    const toast = page.getByTestId('app-update')
    await expect(toast).toBeVisible({ timeout: 20_000 })
    await expect(toast).toContainText('A new version is ready')
    await shoot(page, 'update-toast')

    // Reload during a streaming reply waits for the reply to end, then reloads.
    const isSamePage = () => page.evaluate(() => (window as unknown as { __beforeUpdate?: boolean }).__beforeUpdate ?? false).catch(() => false)
    await page.evaluate(() => ((window as unknown as { __beforeUpdate?: boolean }).__beforeUpdate = true))
    await sendMessage(page, 'Write something long please')
    await expect(page.getByTestId('stop-button')).toBeVisible()
    await toast.getByRole('button', { name: 'Reload' }).click()
    await expect(toast).toContainText('Reloads when the reply has finished.')
    await expect.poll(isSamePage, { timeout: 30_000 }).toBe(false)
    await waitForReady(page)
    // The page reloaded under the new worker. (The app then registers /sw.js again, which is a change of address
    // here, so a next prompt may follow: not checked.)
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(firstWorker.replace(/sw\.js$/, 'sw.js?build=next'))
    // The reply was not cut: it is stored whole.
    await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')
    expect(violations).toEqual([])
  })
})
