// Design 000's plugin API in the built app: icons from any installed Iconify collection render offline, an image
// URL is an icon too, and `tool.enabled.value` is the popover's switch (shown and saved the same way).
import { expect, test, type Page } from '@playwright/test'
import { openApp } from './helpers'

interface PluginWindow {
  plugboard: {
    registry: {
      registerTool: (definition: unknown, handler: () => unknown, options?: unknown) => () => void
      getTool: (name: string) => { enabled: { value: boolean } } | undefined
    }
  }
}

async function register(page: Page, definition: Record<string, unknown>) {
  await page.evaluate((body) => {
    (window as unknown as PluginWindow).plugboard.registry.registerTool(body, () => 'ok')
  }, definition)
}

async function openPopover(page: Page) {
  await page.getByTestId('tool-popover-trigger').click()
  await expect(page.getByTestId('tool-popover-content')).toBeVisible()
}

test('an i-mdi: icon renders offline, served by the app with every other host blocked', async ({ page, baseURL }) => {
  const appHost = new URL(baseURL!).host
  const blocked: string[] = []
  const iconRequests: string[] = []
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (url.pathname.includes('_nuxt_icon')) iconRequests.push(url.pathname + url.search)
    if (url.host === appHost || url.protocol === 'data:') return route.continue()
    blocked.push(url.href)
    return route.abort()
  })
  await openApp(page)
  // an icon no source file names, so it cannot come from the client bundle: the app's server must serve it
  await register(page, { type: 'function', function: { name: 'mdi_probe' }, ui: { label: 'Rocket icon probe', icon: ['i-mdi', 'rocket-launch-outline'].join(':') } })
  await openPopover(page)
  const icon = page.locator('[data-tool="mdi_probe"] [data-slot="tool-icon"]')
  await expect(icon).toBeVisible()
  // css mode paints the SVG as a mask, svg mode inlines it: either way the icon's paths are there
  await expect.poll(() => icon.evaluate((element) => {
    if (element.tagName.toLowerCase() === 'svg') return element.outerHTML
    const style = getComputedStyle(element)
    return `${style.getPropertyValue('--svg')} ${style.maskImage} ${style.getPropertyValue('-webkit-mask-image')}`
  }), { timeout: 10_000 }).toMatch(/svg[^]*(path|%3Cpath)/i)
  const box = await icon.boundingBox()
  expect(box!.width).toBeGreaterThan(0)
  expect(blocked.filter(url => /iconify/i.test(url))).toEqual([])
  expect(iconRequests.some(path => path.includes('mdi') && path.includes('rocket-launch-outline'))).toBe(true)
})

test('an image URL as ui.icon shows as an image with alt text', async ({ page }) => {
  await openApp(page)
  await register(page, { type: 'function', function: { name: 'logo_probe' }, ui: { label: 'Logo probe', icon: '/favicon.svg' } })
  await openPopover(page)
  const image = page.locator('[data-tool="logo_probe"] img')
  await expect(image).toHaveAttribute('alt', 'Logo probe icon')
  await expect.poll(() => image.evaluate(element => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
})

test('tool.enabled.value switches the popover\'s switch and is saved like it', async ({ page }) => {
  const definition = { type: 'function', function: { name: 'ref_probe' }, ui: { label: 'Ref probe', category: 'Probes' } }
  await openApp(page)
  await register(page, definition)
  await openPopover(page)
  const toggle = page.getByTestId('tool-switch-ref_probe')
  await expect(toggle).toHaveAttribute('aria-checked', 'true')

  await page.evaluate(() => {
    (window as unknown as PluginWindow).plugboard.registry.getTool('ref_probe')!.enabled.value = false
  })
  await expect(toggle).toHaveAttribute('aria-checked', 'false')

  // a reload keeps the choice: the tool registers again switched off
  await page.reload({ waitUntil: 'commit' })
  await openApp(page)
  await register(page, definition)
  expect(await page.evaluate(() => (window as unknown as PluginWindow).plugboard.registry.getTool('ref_probe')!.enabled.value)).toBe(false)
  await openPopover(page)
  await expect(page.getByTestId('tool-switch-ref_probe')).toHaveAttribute('aria-checked', 'false')
})
