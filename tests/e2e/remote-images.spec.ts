import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { compatibleProvider, FAKE_URL, lastAssistant, openApp, sendMessage, storeSettings, waitForIdle } from './helpers'
import { seriousViolations } from './support/axe'

// The image host stands in for an attacker's server: a loopback HTTPS server run by this file (HTTPS because the
// page's CSP allows remote images only over https:; self-signed, so this browser context ignores certificate
// errors), recording every request it gets. The fake model puts the URLs we send it into its reply as images.

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

let server: Server | undefined
let certificateDir = ''
let imageOrigin = ''
/** Requests the image host received: path with query, and the referer sent (if any). */
const served: Array<{ url: string, referer?: string }> = []

test.use({ ignoreHTTPSErrors: true })

test.beforeAll(async () => {
  certificateDir = mkdtempSync(join(tmpdir(), 'plugboard-image-host-'))
  const key = join(certificateDir, 'key.pem')
  const cert = join(certificateDir, 'cert.pem')
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert,
  ], { stdio: 'ignore' })
  server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    served.push({ url: request.url ?? '', referer: request.headers.referer })
    response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' })
    response.end(PIXEL)
  })
  await new Promise<void>(resolve => server!.listen(0, '127.0.0.1', resolve))
  imageOrigin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
})

test.afterAll(async () => {
  await new Promise(resolve => server ? server.close(resolve) : resolve(undefined))
  if (certificateDir) rmSync(certificateDir, { recursive: true, force: true })
})

/** Points the app at the fake model that answers with images from the URLs in the message. */
async function useRemoteImageModel(page: Page) {
  await storeSettings(page, { provider: compatibleProvider({ baseUrl: `${FAKE_URL}/api/v1`, apiKey: 'k', model: 'fake/remote-image', toolCallMode: 'native' }) })
  // one navigation only: a reload here raced the app's own reload that allows the endpoint (connect-permission)
  await openApp(page)
}

test('a remote image in a reply is fetched only when its "Load image from host" button is pressed, and only that one', async ({ page }, testInfo) => {
  served.length = 0
  const requested: string[] = []
  page.on('request', (request) => {
    if (request.url().startsWith(imageOrigin)) requested.push(new URL(request.url()).pathname)
  })
  await openApp(page)
  await useRemoteImageModel(page)

  const first = `${imageOrigin}/chart.png?data=what-search-chat-history-returned`
  const second = `${imageOrigin}/second.png`
  await sendMessage(page, `Show me ${first} and ${second}`)
  await waitForIdle(page)

  const reply = lastAssistant(page)
  const host = new URL(imageOrigin).host
  const placeholders = reply.getByRole('button', { name: new RegExp(`Load image from ${host.replace(/\./g, '\\.')}`) })
  await expect(placeholders).toHaveCount(2)
  await expect(placeholders.first()).toContainText('Chart 1 of 2')
  await expect(reply.locator('img')).toHaveCount(0)
  // Links are left alone.
  await expect(reply.getByRole('link', { name: 'the report' })).toHaveAttribute('href', first)
  expect(requested).toEqual([])
  expect(served).toEqual([])

  // Looks deliberate and passes axe in both colour modes.
  await reply.screenshot({ path: testInfo.outputPath('placeholder-light.png') })
  expect(await seriousViolations(page, { include: '[data-testid="message"][data-role="assistant"]' })).toEqual([])
  await page.getByTestId('color-mode').click()
  await expect(page.locator('html')).toHaveClass(/dark/)
  await reply.screenshot({ path: testInfo.outputPath('placeholder-dark.png') })
  expect(await seriousViolations(page, { include: '[data-testid="message"][data-role="assistant"]' })).toEqual([])
  expect(requested).toEqual([])

  // From the keyboard: the placeholder is a real button, Enter loads the image in its place.
  const firstRequest = page.waitForRequest(request => request.url() === first)
  await placeholders.first().focus()
  await page.keyboard.press('Enter')
  await firstRequest
  const images = reply.locator('img')
  await expect(images).toHaveCount(1)
  await expect(images.first()).toHaveAttribute('alt', 'Chart 1 of 2')
  // Loaded, not blocked by the CSP: the pixel decoded.
  await expect.poll(() => images.first().evaluate(image => (image as HTMLImageElement).naturalWidth)).toBe(1)
  await expect(images.first()).toBeFocused()
  await expect(placeholders).toHaveCount(1)
  expect(requested).toEqual(['/chart.png'])
  expect(served).toEqual([{ url: '/chart.png?data=what-search-chat-history-returned', referer: undefined }])
  await reply.screenshot({ path: testInfo.outputPath('loaded-dark.png') })

  // A click loads the other one.
  const secondRequest = page.waitForRequest(second)
  await placeholders.first().click()
  await secondRequest
  await expect(images).toHaveCount(2)
  expect(requested).toEqual(['/chart.png', '/second.png'])
})
