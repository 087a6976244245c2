import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { openApp } from './helpers'
import { startApp, type AppInstance } from './support/app-instance'
import { seriousViolations } from './support/axe'

/** Opens the catalog from the chat's header (a client-side navigation: tools registered from the console stay). */
async function openCatalog(page: Page) {
  await page.getByTestId('catalog-link').click()
  await expect(page).toHaveURL(/\/tools$/)
  await expect(page.getByRole('heading', { name: 'Tools', level: 1 })).toBeVisible()
}

function item(page: Page, tool: string) {
  return page.locator(`[data-testid="catalog-tool"][data-tool="${tool}"]`)
}

test.describe('tool catalog', () => {
  test('lists every tool, and search and the category filter narrow the list', async ({ page }) => {
    await openApp(page)
    await openCatalog(page)
    const tools = page.getByTestId('catalog-tool')
    await expect(tools).toHaveCount(6)
    await expect(item(page, 'fetch_web_page')).toContainText('/fetch') // a server tool sits beside the browser's

    await page.getByTestId('catalog-search').fill('convert units')
    await expect(tools).toHaveCount(1)
    await expect(item(page, 'calculate')).toBeVisible()
    await page.getByTestId('catalog-search').fill('zzz')
    await expect(page.getByTestId('catalog-empty')).toHaveText('No tool matches “zzz”.')
    await page.getByTestId('catalog-search').fill('')

    const web = page.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Web' })
    await web.click()
    await expect(web).toHaveAttribute('aria-pressed', 'true')
    await expect(tools.locator('h2')).toHaveText(['Weather', 'Fetch web page'])
    await page.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Utilities' }).click()
    await expect(tools.locator('h2')).toHaveText(['Calculator', 'Current time'])
    await page.getByTestId('catalog-category-all').click()
    await expect(tools).toHaveCount(6)
  })

  test('shows a tool\'s inputs in basic and advanced groups, its runtime, version, cost and deprecation', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => {
      (window as any).plugboard.registerTool({
        type: 'function',
        function: { name: 'old_upscaler', description: 'Upscales a picture', parameters: { type: 'object', properties: {
          image: { type: 'string', contentMediaType: 'image/png', description: 'The picture' },
          factor: { type: 'number', default: 2 },
        }, required: ['image'] } },
        category: 'Images',
        catalog: { version: '0.9.0', deprecated: 'Use upscale_v2', costingModel: { rate: 0.002, unit: 'request' }, inputs: { factor: { advanced: true } } },
      }, () => 'ok')
    })
    await openCatalog(page)
    const tool = item(page, 'old_upscaler')
    await expect(tool.getByTestId('catalog-deprecated')).toHaveText('Deprecated')
    await tool.getByRole('button', { name: 'Details' }).click()
    const details = tool.getByTestId('catalog-tool-details')
    await expect(details.getByTestId('catalog-inputs-basic')).toContainText('image (image, required)')
    await expect(details.getByTestId('catalog-inputs-advanced')).toContainText('factor (number, optional, default 2)')
    await expect(details.getByTestId('catalog-runtime')).toHaveText('Browser')
    await expect(details.getByTestId('catalog-cost')).toHaveText('$0.002 per request (static rate)')
    await expect(details).toContainText('Use upscale_v2')
    await expect(details).toContainText('0.9.0')
    await expect(page.getByTestId('catalog-problems')).toHaveCount(0)

    // a hybrid tool says where it may run; the switch is the popover's
    await item(page, 'calculate').getByRole('button', { name: 'Details' }).click()
    await expect(item(page, 'calculate').getByTestId('catalog-runtime')).toHaveText('Browser or server')
    const calcSwitch = page.getByTestId('catalog-switch-calculate')
    await expect(calcSwitch).toHaveAttribute('aria-checked', 'true')
    await calcSwitch.click()
    await expect(calcSwitch).toHaveAttribute('aria-checked', 'false')
    await page.getByTestId('catalog-back').click()
    await page.getByTestId('tool-popover-trigger').click()
    await expect(page.getByTestId('tool-switch-calculate')).toHaveAttribute('aria-checked', 'false')
  })

  test('a tool\'s settings form is built from its schema, persisted, and the handler gets the setting', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => {
      (window as any).plugboard.registerTool({
        type: 'function',
        function: { name: 'settings_probe', description: 'Reports its settings', parameters: { type: 'object', properties: {} } },
        catalog: {
          commandName: 'probe',
          settings: {
            units: { type: 'string', label: 'Units', enum: ['metric', 'imperial'], default: 'metric' },
            greeting: { type: 'string', label: 'Greeting', default: 'hello' },
          },
        },
      }, (_args: unknown, context: { settings: Record<string, unknown> }) => `${context.settings.greeting} in ${context.settings.units}`)
    })
    await openCatalog(page)
    const tool = item(page, 'settings_probe')
    await tool.getByRole('button', { name: 'Details' }).click()
    const form = tool.getByTestId('tool-settings-form')
    await expect(form.getByLabel('Units')).toHaveValue('metric')
    await form.getByLabel('Units').selectOption('imperial')
    await form.getByLabel('Greeting').fill('howdy')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await expect(form.getByTestId('tool-settings-saved')).toHaveText('Saved')

    await page.getByTestId('catalog-back').click()
    await page.getByTestId('composer-input').fill('/probe')
    await page.getByTestId('composer-input').press('Enter')
    const card = page.locator('[data-testid="tool-card"][data-tool="settings_probe"]')
    await expect(card.getByTestId('tool-summary')).toHaveText('howdy in imperial', { timeout: 15_000 })

    // the weather tool's units: saved across a reload
    await page.goto('/tools')
    await openApp(page, '/tools')
    const weather = item(page, 'get_weather')
    await weather.getByRole('button', { name: 'Details' }).click()
    await weather.getByLabel('Units').selectOption('imperial')
    await weather.getByRole('button', { name: 'Save settings' }).click()
    await page.reload()
    await openApp(page, '/tools')
    await item(page, 'get_weather').getByRole('button', { name: 'Details' }).click()
    await expect(item(page, 'get_weather').getByLabel('Units')).toHaveValue('imperial')
  })

  test('a broken definition is listed with what validate() finds wrong with it', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => {
      (window as any).plugboard.registerTool({
        type: 'function',
        function: { name: 'copycat', parameters: { type: 'object', properties: {} } },
        catalog: { commandName: 'calc', costingModel: { rate: -1, unit: 'request' } },
      }, () => 'meow')
    })
    await openCatalog(page)
    const problems = page.getByTestId('catalog-problems')
    await expect(problems).toContainText('copycat: costingModel.rate must be a number of USD per unit, 0 or more')
    await expect(problems).toContainText('copycat: commandName /calc is already the command of "calculate"')
    // the first tool keeps the command
    await page.getByTestId('catalog-back').click()
    await page.getByTestId('composer-input').fill('/calc 1+1')
    await page.getByTestId('composer-input').press('Enter')
    await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').getByTestId('tool-summary')).toHaveText('2', { timeout: 15_000 })
  })

  test('has no serious axe violations, with details and a settings form open, in light and dark mode', async ({ page }) => {
    await openApp(page, '/tools')
    await item(page, 'get_weather').getByRole('button', { name: 'Details' }).click()
    await expect(item(page, 'get_weather').getByTestId('tool-settings-form')).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])
    await page.getByTestId('color-mode').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(await seriousViolations(page)).toEqual([])
  })

  test('the catalog\'s New tool button opens the editor, and the saved tool is listed in the catalog', async ({ page }) => {
    await openApp(page)
    await page.getByTestId('catalog-link').click()
    await page.getByTestId('user-tools-new-tool').click()
    const editor = page.getByTestId('user-tool-editor')
    await expect(editor).toBeVisible()
    await editor.getByTestId('user-tool-name').fill('double_it')
    await editor.getByTestId('user-tool-description').fill('Doubles a number n.')
    await editor.getByTestId('user-tool-parameters').fill('{ "type": "object", "properties": { "n": { "type": "number" } }, "required": ["n"] }')
    await editor.getByTestId('user-tool-code').fill('return args.n * 2')
    await editor.getByTestId('user-tool-save').click()
    await expect(editor).toHaveCount(0)
    await expect(item(page, 'double_it')).toBeVisible()
  })
})

test.describe('static tool definitions (NUXT_TOOL_REGISTRY_FILE)', () => {
  let app: AppInstance

  test.beforeAll(async () => {
    const directory = await mkdtemp(join(tmpdir(), 'plugboard-registry-'))
    const file = join(directory, 'tools.json')
    await writeFile(file, JSON.stringify({
      version: 1,
      tools: [
        { toolId: 'upscale_image', service: 'comfyui', displayName: 'Upscale image', description: 'Upscales a picture 4x', inputSchema: { image: { name: 'image', type: 'image', required: true } }, costingModel: { rate: 0.000337, unit: 'second', rateSource: 'machine' }, metadata: { category: 'Images' } },
        { toolId: 'broken tool', service: 'x', displayName: 'Broken', inputSchema: {} },
      ],
    }))
    app = await startApp({ NUXT_TOOL_REGISTRY_FILE: file })
  })

  test.afterAll(async () => {
    await app?.stop()
  })

  test('are listed with their cost but no switch, and never offered to the model', async ({ page }) => {
    await openApp(page, `${app.url}/tools`)
    const tool = item(page, 'upscale_image')
    await expect(tool).toContainText('Upscale image')
    await expect(page.getByTestId('catalog-switch-upscale_image')).toHaveCount(0)
    await tool.getByRole('button', { name: 'Details' }).click()
    await expect(tool.getByTestId('catalog-runtime')).toHaveText('Listed only (no handler here)')
    await expect(tool.getByTestId('catalog-cost')).toHaveText('$0.00034 per second (machine rate)')
    await expect(item(page, 'broken tool')).toHaveCount(0)
    expect(app.output()).toContain('broken tool: toolId must be 1 to 64 letters')
    const { tools } = await (await app.fetchWithSession('/api/tools')).json() as { tools: Array<{ name: string }> }
    expect(tools.map(entry => entry.name)).not.toContain('upscale_image')
  })
})
