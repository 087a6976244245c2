// The app in the user's language: it follows the browser's, Settings → Language picks another (kept across
// reloads), and each language's first screen is accessible, in light and dark, under the strict CSP.
import { expect, test, type Browser } from '@playwright/test'
import { newAppContext, openApp, waitForReady, watchCspViolations } from './helpers'
import { freePort, startApp } from './support/app-instance'
import { addVirtualDevice } from './support/virtual-passkeys'
import { seriousViolations } from './support/axe'

const LANGUAGES = [
  { browser: 'en-US', lang: 'en-US', placeholder: 'Message Plugboard…', settings: 'Settings', empty: 'Ask something that needs a tool' },
  { browser: 'de-DE', lang: 'de-DE', placeholder: 'Nachricht an Plugboard…', settings: 'Einstellungen', empty: 'Fragen Sie etwas, das ein Werkzeug braucht' },
  { browser: 'es-ES', lang: 'es-ES', placeholder: 'Escribe a Plugboard…', settings: 'Ajustes', empty: 'Pregunta algo que necesite una herramienta' },
] as const

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const

async function openIn(browser: Browser, options: { locale: string, colorScheme?: 'light' | 'dark', viewport?: { width: number, height: number } }) {
  const context = await newAppContext(browser, { ...options, baseURL: test.info().project.use.baseURL })
  const page = await context.newPage()
  const violations = await watchCspViolations(page)
  await openApp(page)
  return { context, page, violations }
}

test.describe('languages', () => {
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      test(`a ${language.browser} browser gets the app in its language (${size.name}): first screen accessible in light and dark, no CSP violation`, async ({ browser }) => {
        // two fresh browser contexts, each opening the app and running axe
        test.setTimeout(120_000)
        for (const colorScheme of ['light', 'dark'] as const) {
          const { context, page, violations } = await openIn(browser, { locale: language.browser, colorScheme, viewport: size.viewport })
          await expect(page.locator('html')).toHaveAttribute('lang', language.lang)
          await expect(page.getByTestId('composer-input')).toHaveAttribute('placeholder', language.placeholder)
          await expect(page.getByTestId('settings-open')).toHaveAccessibleName(language.settings)
          await expect(page.getByText(language.empty)).toBeVisible()
          if (colorScheme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/)
          await page.screenshot({ path: `test-results/languages/first-screen-${language.browser}-${size.name}-${colorScheme}.png` })
          expect(await seriousViolations(page)).toEqual([])
          expect(violations).toEqual([])
          await context.close()
        }
      })
    }
  }

  test('a browser in a language the app does not have gets English', async ({ browser }) => {
    const { context, page } = await openIn(browser, { locale: 'fr-FR' })
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US')
    await expect(page.getByTestId('composer-input')).toHaveAttribute('placeholder', 'Message Plugboard…')
    await context.close()
  })

  test('the text beyond the first screen is in the language too: Settings → MCP servers in German, the audit log in Spanish', async ({ browser }) => {
    test.setTimeout(90_000)
    const german = await openIn(browser, { locale: 'de-DE' })
    await german.page.getByTestId('settings-open').click()
    await german.page.getByTestId('settings-nav').getByRole('button', { name: 'MCP-Server' }).click()
    const servers = german.page.getByTestId('mcp-servers')
    await expect(servers.getByTestId('mcp-add')).toHaveText('Server hinzufügen')
    await expect(servers).toContainText('Werkzeuge von Model-Context-Protocol-Servern (Streamable HTTP). Sie fragen vor jedem Lauf nach.')
    await expect(servers.getByLabel('Server-URL')).toBeVisible()
    expect(german.violations).toEqual([])
    await german.context.close()

    // a page opened directly waits for its part of the catalog: no key is ever shown in place of its text
    const spanish = await newAppContext(browser, { locale: 'es-ES', baseURL: test.info().project.use.baseURL })
    const page = await spanish.newPage()
    const violations = await watchCspViolations(page)
    await page.goto('/audit', { waitUntil: 'commit' })
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Registro de auditoría')
    await expect(page.getByTestId('audit-empty')).toHaveText('Todavía no se ha ejecutado ninguna herramienta.')
    await expect(page.getByTestId('audit-count')).toHaveText('0 ejecuciones')
    await expect(page.locator('body')).not.toContainText('audit.')
    expect(violations).toEqual([])
    await spanish.close()
  })

  test('Settings → Language switches the app at once and the choice survives a reload', async ({ browser }) => {
    test.setTimeout(90_000)
    const { context, page, violations } = await openIn(browser, { locale: 'en-US' })
    await page.getByTestId('settings-open').click()
    await page.getByTestId('settings-nav').getByRole('button', { name: 'Language' }).click()
    await page.getByTestId('language-de').check()
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE')
    await expect(page.getByTestId('settings-language').getByRole('heading', { level: 2 })).toHaveText('Sprache')
    await expect(page.getByTestId('composer-input')).toHaveAttribute('placeholder', 'Nachricht an Plugboard…')

    await page.reload({ waitUntil: 'commit' })
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE')
    await expect(page.getByTestId('composer-input')).toHaveAttribute('placeholder', 'Nachricht an Plugboard…')

    // back to Spanish, from the German screen
    await page.getByTestId('settings-open').click()
    await page.getByTestId('language-es').check()
    await expect(page.getByTestId('settings-language').getByRole('heading', { level: 2 })).toHaveText('Idioma')
    await page.reload({ waitUntil: 'commit' })
    await expect(page.locator('html')).toHaveAttribute('lang', 'es-ES')
    await expect(page.getByTestId('settings-open')).toHaveAccessibleName('Ajustes')
    expect(violations).toEqual([])
    await context.close()
  })

  test('after Settings → Language: the shared links panel and an MCP server\'s test result are in that language', async ({ browser }) => {
    test.setTimeout(90_000)
    const { context, page, violations } = await openIn(browser, { locale: 'en-US' })
    await page.getByTestId('settings-open').click()
    await page.getByTestId('settings-nav').getByRole('button', { name: 'Language' }).click()
    await page.getByTestId('language-de').check()
    await expect(page.getByTestId('settings-language').getByRole('heading', { level: 2 })).toHaveText('Sprache')

    await page.getByTestId('settings-nav').getByRole('button', { name: 'Daten' }).click()
    await page.getByTestId('data-shared-links').click()
    const links = page.getByTestId('share-links')
    await expect(links.getByTestId('share-links-empty')).toHaveText('Sie haben noch keinen Chat geteilt.', { timeout: 20_000 })
    await expect(links).toContainText('Links werden nur einmal vollständig gezeigt, beim Erstellen.')

    // a port where nothing listens, whose origin the page's policy does not allow (and the relay does not take)
    const closed = `http://127.0.0.1:${await freePort()}`
    await page.getByTestId('settings-nav').getByRole('button', { name: 'MCP-Server' }).click()
    await page.getByTestId('mcp-url').fill(`${closed}/mcp`)
    const form = page.getByTestId('mcp-add-form')
    await expect(form.getByTestId('mcp-test-run')).toHaveText('Server testen')
    await form.getByTestId('mcp-test-run').click()
    const result = form.getByTestId('mcp-test-result')
    await expect(result).toHaveAttribute('data-problem', 'csp', { timeout: 20_000 })
    await expect(result.getByTestId('mcp-test-summary')).toHaveText(`Diese Seite darf sich nicht mit ${closed} verbinden (ihre Sicherheitsrichtlinie), und der Server dieser App leitet nicht dorthin weiter. Erlauben Sie es, um den Server aus diesem Browser zu testen.`)
    await expect(result.getByTestId('mcp-test-allow')).toHaveText(`${closed} erlauben und neu laden`)
    expect(violations).toEqual([])
    await context.close()
  })

  test('with accounts: the language chosen in Settings is the invite page\'s and the passkey form\'s', async ({ browser }) => {
    test.setTimeout(180_000)
    // passkeys need a host name (an IP address is never a relying party)
    const port = await freePort()
    const site = `http://localhost:${port}`
    const app = await startApp({ NUXT_ACCOUNTS: 'passkeys', NUXT_ACCOUNTS_ORIGIN: site }, { port })
    const context = await newAppContext(browser, { locale: 'en-US' })
    try {
      const page = await context.newPage()
      await addVirtualDevice(page)
      await page.goto(site)
      await expect(page).toHaveURL(/\/sign-in/)
      await expect(page.getByTestId('passkey-sign-up-submit')).toHaveText('Create the admin account')
      await page.getByTestId('account-name').fill('Ada')
      await page.getByTestId('passkey-sign-up-submit').click()
      await waitForReady(page)

      await page.getByTestId('settings-open').click()
      await page.getByTestId('settings-nav').getByRole('button', { name: 'Language' }).click()
      await page.getByTestId('language-es').check()
      await page.getByTestId('settings-nav').getByRole('button', { name: 'Cuenta' }).click()
      await expect(page.getByTestId('account-who')).toContainText('Sesión iniciada como', { timeout: 20_000 })
      await page.getByTestId('account-invite').click()
      const inviteUrl = await page.getByTestId('account-invite-url').inputValue()

      const violations = await watchCspViolations(page)
      await page.goto(inviteUrl)
      const invite = page.getByTestId('invite-page')
      await expect(invite.getByRole('heading', { level: 1 })).toHaveText('Únete a Plugboard')
      await expect(invite).toContainText('Te han invitado a este servidor. Elige un nombre; tu dispositivo guarda la llave de acceso.')
      await expect(invite.getByText('Tu nombre')).toBeVisible()
      await expect(invite.getByTestId('passkey-sign-up-submit')).toHaveText('Crear mi cuenta con una llave de acceso')
      await expect(page.locator('body')).not.toContainText('accounts.')
      expect(violations).toEqual([])
    }
    finally {
      await context.close()
      await app.stop()
    }
  })
})
