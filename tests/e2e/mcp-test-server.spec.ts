// Settings → MCP servers → "Test server": the probe in real Chromium against a real MCP server and small hostile
// ones, each failure told in plain words. The page's policy allows an origin only once the user allowed it (the
// connect cookie), so each case sets the cookie as "Allow" would.
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { openApp } from './helpers'
import { freePort, startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'

let app: AppInstance
let good: McpTestServer
let noCors: McpTestServer
let webPage: string
let signIn: string
const hostile: Server[] = []

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-expose-headers': 'www-authenticate, mcp-session-id' }

async function serve(handler: (request: IncomingMessage, response: ServerResponse, origin: string) => void): Promise<string> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('request', (request, response) => {
    if (request.method === 'OPTIONS') return void response.writeHead(204, CORS).end()
    handler(request, response, origin)
  })
  hostile.push(server)
  return `${origin}/mcp`
}

test.beforeAll(async () => {
  [good, noCors] = await Promise.all([startMcpTestServer({ cors: true }), startMcpTestServer({ cors: false })])
  webPage = await serve((_, response) => response.writeHead(200, { ...CORS, 'content-type': 'text/html' }).end('<!doctype html><h1>Welcome</h1>'))
  signIn = await serve((request, response, origin) => {
    if (request.url === '/.well-known/oauth-protected-resource/mcp') {
      return void response.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: ['https://auth.example.com'] }))
    }
    response.writeHead(401, { ...CORS, 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` }).end()
  })
  // the relay takes the CORS-less server only
  app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${noCors.port}` })
})

test.afterAll(async () => {
  await app?.stop()
  await Promise.all([good?.close(), noCors?.close(), ...hostile.map(server => new Promise(resolve => server.close(resolve)))])
})

/** Opens Settings with these origins allowed in the page's policy, as the user's "Allow" leaves them. */
async function openSettings(page: Page, allowed: string[]) {
  if (allowed.length > 0) {
    await page.context().addCookies([{ name: 'plugboard-connect', value: encodeURIComponent(allowed.map(url => new URL(url).origin).join(',')), url: app.url }])
  }
  await openApp(page, app.url)
  await page.getByTestId('settings-open').click()
  await expect(page.getByTestId('mcp-servers')).toBeVisible()
}

async function testUrl(page: Page, url: string) {
  await page.getByTestId('mcp-url').fill(url)
  await page.getByTestId('mcp-add-form').getByTestId('mcp-test-run').click()
  const result = page.getByTestId('mcp-add-form').getByTestId('mcp-test-result')
  await expect(result).toBeVisible({ timeout: 15_000 })
  return result
}

test('a good server: OK with its tools, protocol and name; screenshots on desktop and phone', async ({ page }) => {
  await openSettings(page, [good.url])
  const result = await testUrl(page, good.url)
  await expect(result).toHaveAttribute('data-ok', 'true')
  await expect(result.getByTestId('mcp-test-summary')).toHaveText(/^OK: \d+ tools, protocol 2025-06-18, server plugboard-test 1\.0\.0$/)
  await page.getByTestId('mcp-add-form').screenshot({ path: test.info().outputPath('probe-ok-desktop.png') })
  await page.setViewportSize({ width: 390, height: 844 })
  await result.scrollIntoViewIfNeeded()
  await page.screenshot({ path: test.info().outputPath('probe-ok-phone.png') })
})

test('an origin the page\'s policy does not allow: says so and offers Allow, which makes the test pass', async ({ page }) => {
  await openSettings(page, [])
  const result = await testUrl(page, good.url)
  await expect(result).toHaveAttribute('data-problem', 'csp')
  await expect(result).toContainText(`This page may not connect to ${new URL(good.url).origin} (its security policy)`)
  await page.getByTestId('mcp-add-form').screenshot({ path: test.info().outputPath('probe-csp-desktop.png') })
  await result.getByTestId('mcp-test-allow').click()
  await openApp(page, app.url)
  await page.getByTestId('settings-open').click()
  const again = await testUrl(page, good.url)
  await expect(again).toHaveAttribute('data-ok', 'true')
})

test('a server without CORS: tested through the relay, which says why the browser cannot reach it', async ({ page }) => {
  await openSettings(page, [noCors.url])
  const result = await testUrl(page, noCors.url)
  await expect(result).toHaveAttribute('data-ok', 'true')
  await expect(result.getByTestId('mcp-test-note')).toHaveText(`Through this app's server: 127.0.0.1:${noCors.port} does not allow this app's origin (CORS), so the browser cannot read its answers.`)
})

test('a server without CORS the relay does not take: CORS, with who can fix it', async ({ page }) => {
  const other = await startMcpTestServer({ cors: false })
  try {
    await openSettings(page, [other.url])
    const result = await testUrl(page, other.url)
    await expect(result).toHaveAttribute('data-problem', 'cors')
    await expect(result).toContainText('does not allow this app\'s origin (CORS)')
    await expect(result).toContainText('NUXT_MCP_ALLOWED_HOSTS')
  }
  finally {
    await other.close()
  }
})

test('a server that asks to sign in, a web page, and nothing at all: each in plain words', async ({ page }) => {
  const closedPort = await freePort()
  const nothing = `http://127.0.0.1:${closedPort}/mcp`
  await openSettings(page, [signIn, webPage, nothing])

  const auth = await testUrl(page, signIn)
  await expect(auth).toHaveAttribute('data-problem', 'auth')
  await expect(auth.getByTestId('mcp-test-summary')).toHaveText('This server asks you to sign in (at auth.example.com).')
  await page.getByTestId('mcp-add-form').screenshot({ path: test.info().outputPath('probe-auth-desktop.png') })

  const html = await testUrl(page, webPage)
  await expect(html).toHaveAttribute('data-problem', 'not-mcp')
  await expect(html).toContainText('This URL answers with a web page (HTML), not MCP.')

  const unreachable = await testUrl(page, nothing)
  await expect(unreachable).toHaveAttribute('data-problem', 'unreachable')
  await expect(unreachable).toContainText(`127.0.0.1:${closedPort} could not be reached`)
  await page.setViewportSize({ width: 390, height: 844 })
  await unreachable.scrollIntoViewIfNeeded()
  await page.screenshot({ path: test.info().outputPath('probe-unreachable-phone.png') })
})
