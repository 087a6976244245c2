// `npm run dev`: a tool plugin file added to, edited in or removed from plugins/ takes effect in an open page without
// restarting the dev server (the README's roll_dice example). Starts its own `nuxt dev` on a free port.
import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { expect, test, type Page } from '@playwright/test'

const root = resolve(import.meta.dirname, '../..')
// not starting with '_' (the loader skips those), and a name no real plugin uses
const pluginFile = resolve(root, 'plugins/dev-reload-probe.ts')

function pluginSource(label: string) {
  return `import { defineTool } from '~/utils/chat/tools'

export default defineTool({
  type: 'function',
  function: { name: 'dev_reload_probe', description: 'Rolls a die.', parameters: { type: 'object', properties: { sides: { type: 'integer' } } } },
  ui: { label: '${label}', category: 'Games' },
}, ({ sides }) => 1 + Math.floor(Math.random() * (sides ?? 6)))
`
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => done(port))
    }).on('error', fail)
  })
}

let dev: ChildProcess | undefined
let baseUrl = ''
const devLog: string[] = []

test.beforeAll(async () => {
  test.setTimeout(300_000)
  rmSync(pluginFile, { force: true })
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  dev = spawn(process.execPath, [resolve(root, 'node_modules/nuxt/bin/nuxt.mjs'), 'dev', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: root,
    // its own build folder: `npm test` runs the unit tests beside this spec, and one reads what Nuxt writes in .nuxt
    env: { ...process.env, NUXT_TELEMETRY_DISABLED: '1', PORT: String(port), PLUGBOARD_NUXT_BUILD_DIR: '.nuxt-dev-reload' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  dev.stdout!.on('data', chunk => devLog.push(String(chunk)))
  dev.stderr!.on('data', chunk => devLog.push(String(chunk)))
  await expect.poll(async () => {
    const response = await fetch(baseUrl).catch(() => undefined)
    return response?.status
  }, { timeout: 280_000, intervals: [1_000] }).toBe(200)
})

test.afterAll(async () => {
  rmSync(pluginFile, { force: true })
  if (dev && dev.exitCode === null) {
    const exited = new Promise(done => dev!.once('exit', done))
    dev.kill('SIGTERM')
    await exited
  }
})

/** Tool names and labels as the page's registry has them; undefined while the page (re)loads. */
function toolLabels(page: Page) {
  return page.evaluate(() => (window as unknown as { plugboard?: { registry: { listTools: () => { value: Array<{ name: string, label: string }> } } } })
    .plugboard?.registry.listTools().value.map(tool => `${tool.name}: ${tool.label}`)).catch(() => undefined)
}

test('a plugin file added, edited and removed in dev takes effect without restarting the server', async ({ page }) => {
  test.setTimeout(240_000)
  const errors: string[] = []
  page.on('console', message => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(baseUrl, { waitUntil: 'commit', timeout: 120_000 })
  await expect.poll(() => page.evaluate(() => (window as { __plugboardReady?: boolean }).__plugboardReady === true).catch(() => false),
    { timeout: 120_000 }).toBe(true)
  expect(await toolLabels(page)).not.toContain('dev_reload_probe: Dice')

  writeFileSync(pluginFile, pluginSource('Dice'))
  await expect.poll(() => toolLabels(page), { timeout: 60_000 }).toContain('dev_reload_probe: Dice')
  await page.getByTestId('tool-popover-trigger').click()
  await expect(page.getByTestId('tool-switch-dev_reload_probe')).toBeVisible()
  await expect(page.getByTestId('tool-popover-content')).toContainText('Games')

  writeFileSync(pluginFile, pluginSource('Dice, edited'))
  await expect.poll(() => toolLabels(page), { timeout: 60_000 }).toContain('dev_reload_probe: Dice, edited')
  expect(await toolLabels(page)).not.toContain('dev_reload_probe: Dice')

  rmSync(pluginFile)
  // One read for both: while the page takes the new plugin list, it can briefly list no tools at all.
  await expect.poll(async () => {
    const labels = (await toolLabels(page)) ?? []
    return { probe: labels.some(entry => entry.startsWith('dev_reload_probe')), calculator: labels.includes('calculate: Calculator') }
  }, { timeout: 60_000 }).toEqual({ probe: false, calculator: true })
  // replacing the tool never raised a duplicate-name error, and no plugin failed to load
  expect(errors.filter(text => /already registered|DuplicateToolError|Failed to load tool plugin/i.test(text))).toEqual([])
})
