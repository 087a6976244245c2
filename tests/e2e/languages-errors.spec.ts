// Failures in the user's language: an MCP server's status and a server's refusal arrive as codes, and a German
// user reads them in German (the English stays in the answer for logs, the model and older clients).
import { expect, test } from '@playwright/test'
import type { Browser } from '@playwright/test'
import { openApp, watchCspViolations } from './helpers'
import { freePort, startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { addVirtualDevice } from './support/virtual-passkeys'

async function openGerman(browser: Browser, url: string) {
  const context = await browser.newContext({ locale: 'de-DE', baseURL: test.info().project.use.baseURL })
  const page = await context.newPage()
  const violations = await watchCspViolations(page)
  await openApp(page, url)
  return { context, page, violations }
}

const snapshot = { version: 1, title: 'Geteilt', takenAt: Date.now(), messages: [{ id: 'm1', role: 'user', content: 'Hallo', status: 'complete', createdAt: 1 }, { id: 'm2', role: 'assistant', content: 'Hallo!', status: 'complete', createdAt: 2 }] }

test.describe('errors in the user\'s language', () => {
  let app: AppInstance
  let closedPort: number

  test.beforeAll(async () => {
    // the relay may reach this port, but nothing listens there: the server is down
    closedPort = await freePort()
    app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${closedPort}` })
  })

  test.afterAll(async () => {
    await app?.stop()
  })

  test('an MCP server that cannot be reached says so in German, with the English kept behind Details', async ({ browser }) => {
    test.setTimeout(90_000)
    const { context, page, violations } = await openGerman(browser, app.url)
    await page.getByTestId('settings-open').click()
    await page.getByTestId('settings-nav').getByRole('button', { name: 'MCP-Server' }).click()
    await page.getByTestId('mcp-name').fill('Weg')
    await page.getByTestId('mcp-url').fill(`http://127.0.0.1:${closedPort}/mcp`)
    await page.getByTestId('mcp-add').click()
    const server = page.locator('[data-testid="mcp-server"][data-name="Weg"]')
    const message = server.getByTestId('mcp-server-message')
    await expect(message).toContainText('Der Server war über den Server dieser App nicht erreichbar (HTTP 502).', { timeout: 30_000 })
    await expect(message).toContainText('Prüfen Sie, ob er läuft')
    await expect(message).not.toContainText('could not be reached')
    await server.getByTestId('mcp-server-details').locator('summary').click()
    await expect(server.getByTestId('mcp-server-details')).toContainText('Could not reach the MCP server')
    expect(violations).toEqual([])
    await context.close()
  })

  test('a revoked share link answers 410 with its code, and its page says so in German', async ({ browser, page }) => {
    test.setTimeout(90_000)
    await openApp(page)
    const created = await page.evaluate(async (body) => {
      const response = await fetch('/api/share-links', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      return await response.json() as { id: string, path: string }
    }, JSON.stringify({ snapshot }))
    const token = created.path.split('/').at(-1)!
    expect(await page.evaluate(async id => (await fetch(`/api/share-links/${id}`, { method: 'DELETE' })).status, created.id)).toBeLessThan(300)

    // the API: English message for older clients and curl, the code and its parameters for the app
    const answer = await page.request.get(`/api/shared/${token}`)
    expect(answer.status()).toBe(410)
    const body = await answer.json() as { message: string, data: { code: string, params: Record<string, unknown> } }
    expect(body.message).toBe('This link was revoked: its owner no longer shares this chat.')
    expect(body.data).toEqual({ code: 'server.share.revoked', params: {} })

    const german = await browser.newContext({ locale: 'de-DE', baseURL: test.info().project.use.baseURL })
    const visitor = await german.newPage()
    const response = await visitor.goto(created.path)
    expect(response?.status()).toBe(410)
    await expect(visitor.locator('html')).toHaveAttribute('lang', 'de')
    await expect(visitor.getByRole('heading', { name: 'Dieser Link wurde widerrufen' })).toBeVisible()
    await expect(visitor.locator('body')).toContainText('Sein Besitzer teilt diesen Chat nicht mehr.')
    await german.close()

    // a link that never was, for a visitor who chose Spanish in the app (its cookie wins over the browser's language)
    const spanish = await browser.newContext({ locale: 'de-DE', baseURL: test.info().project.use.baseURL })
    await spanish.addCookies([{ name: 'plugboard_locale', value: 'es', url: new URL(page.url()).origin }])
    const other = await spanish.newPage()
    expect((await other.goto(`/s/${'A'.repeat(43)}`))?.status()).toBe(404)
    await expect(other.getByRole('heading', { name: 'Aquí no hay ningún chat compartido' })).toBeVisible()
    await expect(other.locator('body')).toContainText('No hay ningún chat compartido en este enlace.')
    await spanish.close()
  })

  test('a passkey route\'s refusal reaches a German user in German', async ({ browser }) => {
    test.setTimeout(120_000)
    // passkeys need a host name (an IP address is never a relying party)
    const port = await freePort()
    const site = `http://localhost:${port}`
    const accounts = await startApp({ NUXT_ACCOUNTS: 'passkeys', NUXT_ACCOUNTS_ORIGIN: site }, { port })
    const context = await browser.newContext({ locale: 'de-DE' })
    try {
      const page = await context.newPage()
      await addVirtualDevice(page)
      await page.goto(site)
      await expect(page).toHaveURL(/\/sign-in/)
      // a name of spaces only passes the field's own check; the server refuses it with a code
      await page.getByTestId('account-name').fill('   ')
      await page.getByTestId('passkey-sign-up-submit').click()
      const error = page.getByTestId('passkey-error')
      await expect(error).toHaveText('Geben Sie Ihrem Konto einen Namen mit 1 bis 64 Zeichen.', { timeout: 20_000 })
    }
    finally {
      await context.close()
      await accounts.stop()
    }
  })
  test('a wrong access password is refused in Spanish on the sign-in page', async ({ browser }) => {
    test.setTimeout(90_000)
    const guarded = await startApp({ NUXT_ACCESS_PASSWORD: 'correct horse battery staple' })
    const context = await browser.newContext({ locale: 'es-ES' })
    try {
      const page = await context.newPage()
      const violations = await watchCspViolations(page)
      await page.goto(guarded.url)
      await expect(page).toHaveURL(/\/sign-in/)
      await page.getByTestId('sign-in-password').fill('wrong password')
      await page.getByTestId('sign-in-submit').click()
      await expect(page.getByText('Esa contraseña no es correcta.')).toBeVisible({ timeout: 20_000 })
      await expect(page.getByText('That password is not right.')).toHaveCount(0)
      expect(violations).toEqual([])
    }
    finally {
      await context.close()
      await guarded.stop()
    }
  })
})
