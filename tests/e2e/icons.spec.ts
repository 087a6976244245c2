// Any Iconify collection renders: tools registered at run time with icons of tabler, carbon and phosphor (installed
// sets, names no source file mentions, so the client bundle cannot have them) and of fluent (not installed: the app's
// server fetches it from the Iconify API) show real SVGs in the popover and in the /tools catalog, served by the
// app's own server while every other host is blocked; an icon no collection has, or one whose body carries a
// script, shows the fallback icon, never a blank hole.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { openApp } from './helpers'

// joined at run time so @nuxt/icon's source scan never finds (and bundles) them
const ICONS = {
  tabler_probe: ['i-tabler', 'cloud-upload'].join(':'),
  carbon_probe: ['i-carbon', 'rocket'].join(':'),
  phosphor_probe: ['i-ph', 'alarm-duotone'].join(':'),
  dashed_probe: ['i', 'simple-icons', 'github'].join('-'),
  // fluent is not installed: the app's server fetches it from the Iconify API (here the fake's stand-in)
  fetched_probe: ['i-fluent', 'rocket-24-regular'].join(':'),
  unknown_probe: ['i-tabler', 'no-such-icon-anywhere'].join(':'),
  unknown_set_probe: ['i-nosuchset', 'cloud'].join(':'),
  // the stand-in answers this one with a script in its body, as a hostile mirror would: the fallback shows
  hostile_probe: ['i-fluent', 'evil-24-regular'].join(':'),
}
const KNOWN = ['tabler_probe', 'carbon_probe', 'phosphor_probe', 'dashed_probe', 'fetched_probe']
const UNKNOWN = ['unknown_probe', 'unknown_set_probe', 'hostile_probe']

interface PluginWindow {
  plugboard: { registerTool: (definition: unknown, handler: () => unknown) => () => void }
}

/** The SVG an icon shows: css mode paints it as a mask, svg mode inlines it. */
function paintedSvg(icon: Locator): Promise<string> {
  return icon.evaluate((element) => {
    if (element.tagName.toLowerCase() === 'svg') return element.outerHTML
    const style = getComputedStyle(element)
    return `${style.getPropertyValue('--svg')} ${style.maskImage} ${style.getPropertyValue('-webkit-mask-image')}`
  })
}

async function expectIcons(page: Page, container: (tool: string) => Locator) {
  const painted: Record<string, string> = {}
  for (const tool of [...KNOWN, ...UNKNOWN]) {
    const icon = container(tool).locator('[data-slot="tool-icon"]')
    await expect(icon).toBeVisible()
    await expect.poll(() => paintedSvg(icon), { message: tool, timeout: 10_000 }).toMatch(/svg[^]*(path|%3Cpath)/i)
    const box = await icon.boundingBox()
    expect(box!.width, tool).toBeGreaterThan(0)
    expect(box!.height, tool).toBeGreaterThan(0)
    if (UNKNOWN.includes(tool)) await expect(icon).toHaveAttribute('data-icon-missing', 'true')
    else await expect(icon).not.toHaveAttribute('data-icon-missing')
    painted[tool] = await paintedSvg(icon)
  }
  // five different real icons, and the unknown ones show the same fallback, which none of the real ones is
  expect(new Set(KNOWN.map(tool => painted[tool])).size).toBe(KNOWN.length)
  expect(painted.unknown_probe).toBe(painted.unknown_set_probe)
  expect(painted.hostile_probe).toBe(painted.unknown_probe)
  for (const tool of KNOWN) expect(painted[tool]).not.toBe(painted.unknown_probe)
}

test('icons of any Iconify collection render in the popover and the catalog, all through the app; an unknown or hostile icon shows the fallback', async ({ page, baseURL }) => {
  const appHost = new URL(baseURL!).host
  const blocked: string[] = []
  const iconRequests: string[] = []
  const cspErrors: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text())
  })
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (url.pathname.startsWith('/api/_nuxt_icon/')) iconRequests.push(url.pathname + url.search)
    if (url.host === appHost || url.protocol === 'data:') return route.continue()
    blocked.push(url.href)
    return route.abort()
  })
  await openApp(page)
  await page.evaluate((icons) => {
    for (const [name, icon] of Object.entries(icons)) {
      (window as unknown as PluginWindow).plugboard.registerTool({
        type: 'function',
        function: { name, description: `Shows ${icon}`, parameters: { type: 'object', properties: {} } },
        ui: { label: `${name} label`, icon, category: 'Icon probes' },
      }, () => 'ok')
    }
  }, ICONS)

  await page.getByTestId('tool-popover-trigger').click()
  await expect(page.getByTestId('tool-popover-content')).toBeVisible()
  await expectIcons(page, tool => page.getByTestId('tool-popover-content').locator(`[data-tool="${tool}"]`))
  await page.keyboard.press('Escape')

  await page.getByTestId('catalog-link').click()
  await expect(page).toHaveURL(/\/tools$/)
  await expectIcons(page, tool => page.locator(`[data-testid="catalog-tool"][data-tool="${tool}"]`))

  // every icon came from the app's own server, one collection per request
  for (const prefix of ['tabler', 'carbon', 'ph', 'simple-icons', 'fluent']) {
    expect(iconRequests.some(path => path.startsWith(`/api/_nuxt_icon/${prefix}.json?`)), prefix).toBe(true)
  }
  expect(blocked).toEqual([])
  expect(cspErrors).toEqual([])
})

test('the icon route answers a page\'s hostile requests with clean refusals', async ({ page }) => {
  await openApp(page)
  const answers = await page.evaluate(async () => {
    const ask = async (path: string) => {
      const response = await fetch(`/api/_nuxt_icon/${path}`)
      return { status: response.status, body: await response.text() }
    }
    return {
      known: await ask('carbon.json?icons=rocket,no-such-one'),
      traversal: await ask('..%2F..%2Fpackage.json?icons=name'),
      unknownSet: await ask('nosuchset.json?icons=cloud'),
      tooMany: await ask(`tabler.json?icons=${Array.from({ length: 200 }, (_, index) => `n${index}`).join(',')}`),
      huge: await ask(`tabler.json?icons=${'a'.repeat(4000)}`),
    }
  })
  expect(answers.known.status).toBe(200)
  expect(JSON.parse(answers.known.body)).toMatchObject({ prefix: 'carbon', not_found: ['no-such-one'] })
  expect(Object.keys(JSON.parse(answers.known.body).icons)).toEqual(['rocket'])
  expect(answers.traversal.status).toBe(404)
  expect(answers.traversal.body).not.toContain('plugboard')
  expect(answers.unknownSet.status).toBe(404)
  expect(answers.tooMany.status).toBe(400)
  expect(answers.huge.status).toBe(400)
})
