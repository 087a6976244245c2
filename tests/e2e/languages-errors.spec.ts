// Failures in the user's language: an MCP server's status and a server's refusal arrive as codes, and a German
// user reads them in German (the English stays in the answer for logs, the model and older clients).
import { expect, test } from '@playwright/test'
import type { Browser } from '@playwright/test'
import { FAKE_URL, newAppContext, openApp, openAppWith, openRouterProvider, PROXY_APP_URL, sendMessage, waitForIdle, watchCspViolations } from './helpers'
import { freePort, startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { addVirtualDevice } from './support/virtual-passkeys'

async function openGerman(browser: Browser, url: string) {
  const context = await newAppContext(browser, { locale: 'de-DE', baseURL: test.info().project.use.baseURL })
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

  test('a rate-limited reply reads in German, with the provider\'s own words kept behind Details', async ({ browser }) => {
    const context = await newAppContext(browser, { locale: 'de-DE' })
    const page = await context.newPage()
    // the instance with a server key, pointed at the fake OpenRouter, whose fake/429 answers 429 with retry-after: 7
    await openAppWith(page, { provider: openRouterProvider('fake/429') }, PROXY_APP_URL)
    await sendMessage(page, 'Hallo')
    const error = page.getByTestId('message-error').last()
    await expect(error).toContainText('Der Anbieter begrenzt die Anfragen. Versuchen Sie es in 7 s erneut.', { timeout: 15_000 })
    await expect(error).not.toContainText('Rate limited by the provider')
    await expect(error.getByTestId('retry-button')).toHaveText(/Erneut versuchen/)
    await error.getByTestId('provider-details').locator('summary').click()
    await expect(error.getByTestId('provider-message')).toContainText('Rate limit exceeded: fake/429')
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

    const german = await newAppContext(browser, { locale: 'de-DE', baseURL: test.info().project.use.baseURL })
    const visitor = await german.newPage()
    const response = await visitor.goto(created.path)
    expect(response?.status()).toBe(410)
    await expect(visitor.locator('html')).toHaveAttribute('lang', 'de')
    await expect(visitor.getByRole('heading', { name: 'Dieser Link wurde widerrufen' })).toBeVisible()
    await expect(visitor.locator('body')).toContainText('Sein Besitzer teilt diesen Chat nicht mehr.')
    await german.close()

    // a link that never was, for a visitor who chose Spanish in the app (its cookie wins over the browser's language)
    const spanish = await newAppContext(browser, { locale: 'de-DE', baseURL: test.info().project.use.baseURL })
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
    const context = await newAppContext(browser, { locale: 'de-DE' })
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
    const context = await newAppContext(browser, { locale: 'es-ES' })
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

  test('a workflow that is gone says so in German in the Workflows panel', async ({ browser }) => {
    test.setTimeout(90_000)
    const { context, page, violations } = await openGerman(browser, app.url)
    // the first workflow request opens the embedded database: seconds on a loaded machine
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/workflows', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bericht', model: 'fake/tools', firstMessage: 'Hallo' }) })
      return await response.json() as { id: string }
    })
    await page.getByTestId('workflows-open').click()
    const panel = page.getByTestId('workflows-panel')
    await expect(panel.getByTestId('workflow-item')).toHaveCount(1)
    // removed behind the panel's back (another tab): Run meets the server's 404
    expect(await page.evaluate(async id => (await fetch(`/api/workflows/${id}`, { method: 'DELETE' })).status, created.id)).toBe(200)
    await panel.getByTestId('workflow-run-Bericht').click()
    await expect(panel.getByTestId('workflows-error')).toHaveText('Diesen Workflow gibt es nicht.')
    expect(violations).toEqual([])
    await context.close()
  })

  test('a session past its cap on server-run replies reads the failed reply in German', async ({ browser }) => {
    test.setTimeout(120_000)
    const capped = await startApp({ NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key', NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`, NUXT_PUBLIC_DEFAULT_MODEL: 'fake/fetch-page', NUXT_JOB_MAX_ACTIVE_PER_SESSION: '2' })
    const context = await newAppContext(browser, { locale: 'de-DE' })
    try {
      const page = await context.newPage()
      await openAppWith(page, { provider: openRouterProvider('fake/fetch-page'), runOnServer: true, toolStates: { fetch_web_page: true } }, capped.url)
      // two chats that wait for an approval nobody gives fill the cap
      const statuses = await page.evaluate(async () => Promise.all(['held-1', 'held-2'].map(async threadId => (await fetch('/api/chats', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId, model: 'fake/fetch-page', messages: [{ role: 'user', content: 'Read http://127.0.0.1:9/nothing' }], serverTools: ['fetch_web_page'], toolPolicies: { fetch_web_page: 'ask' } }),
      })).status)))
      expect(statuses).toEqual([201, 201])
      await sendMessage(page, 'Lies http://127.0.0.1:9/mehr')
      await waitForIdle(page)
      const error = page.getByTestId('message-error').last()
      await expect(error).toContainText('Sie haben schon 2 Antworten, die auf dem Server laufen oder warten')
      await expect(error).not.toContainText('You already have')
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.screenshot({ path: test.info().outputPath('job-cap-de.png') })
    }
    finally {
      await context.close()
      await capped.stop()
    }
  })

  test('a sync push the server refuses is explained in Spanish under the chat list', async ({ browser }) => {
    test.setTimeout(120_000)
    const synced = await startApp({ NUXT_SYNC: 'on' })
    const context = await newAppContext(browser, { locale: 'es-ES' })
    try {
      // this device's clock is an hour ahead: the server refuses its changes, which would win every later write
      await context.addInitScript(() => {
        const realNow = Date.now.bind(Date)
        Date.now = () => realNow() + 3_600_000
      })
      const page = await context.newPage()
      const violations = await watchCspViolations(page)
      await openApp(page, synced.url)
      // the first sync request opens the server's database: seconds on a loaded machine
      await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'synced', { timeout: 60_000 })
      await sendMessage(page, 'Hola')
      const error = page.getByTestId('sync-error')
      await expect(error).toContainText('Envío de sincronización no válido: el reloj de', { timeout: 30_000 })
      await expect(error).toContainText('va más de 5 minutos por delante del servidor. Revisa la fecha y la hora de este dispositivo.')
      await expect(error).not.toContainText('Not a valid sync push')
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.screenshot({ path: test.info().outputPath('sync-refused-es.png') })
      expect(violations).toEqual([])
    }
    finally {
      await context.close()
      await synced.stop()
    }
  })
})
