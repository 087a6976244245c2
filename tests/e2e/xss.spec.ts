import { expect, test } from '@playwright/test'
import { compatibleProvider, FAKE_URL, lastAssistant, openApp, sendMessage, storeSettings, waitForIdle } from './helpers'

test('a reply made of 1,584 XSS payloads renders inert in real Chromium', async ({ page }) => {
  test.setTimeout(90_000)
  const dialogs: string[] = []
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message())
    await dialog.dismiss()
  })
  await openApp(page)
  await storeSettings(page, { provider: compatibleProvider({ baseUrl: `${FAKE_URL}/api/v1`, apiKey: 'k', model: 'fake/xss', toolCallMode: 'native' }) })
  await openApp(page)
  // Anything that runs script in this page flips this flag (payloads call alert/prompt/confirm).
  await page.evaluate(() => {
    for (const name of ['alert', 'prompt', 'confirm'] as const) {
      (window as any)[name] = () => { (window as any).__xssFired = true }
    }
  })
  await sendMessage(page, 'Show me your worst')
  // 1,584 payloads arrive in one burst and are shown over frames, a little per frame: beside other workers that took
  // over 20 s in CI
  await waitForIdle(page, { timeout: 60_000 })
  const reply = lastAssistant(page)
  await expect(reply).toContainText('XSS corpus complete.')
  // Every image the page fetches has loaded or failed (so any handler on it had its chance), then one more task for
  // those handlers. A lazy image out of view is never fetched.
  await expect.poll(() => reply.evaluate(element => [...element.querySelectorAll('img')].every(image => image.complete || image.loading === 'lazy')), { timeout: 10_000 }).toBe(true)
  await page.evaluate(() => new Promise(resolve => setTimeout(resolve, 0)))
  const report = await reply.evaluate((element) => {
    const active: string[] = []
    for (const node of element.querySelectorAll('*')) {
      const tag = node.tagName.toLowerCase()
      if (['script', 'iframe', 'object', 'embed', 'form', 'style', 'base', 'meta', 'link'].includes(tag)) active.push(`<${tag}>`)
      for (const attribute of node.attributes) {
        if (/^on/i.test(attribute.name) || attribute.name === 'srcdoc' || attribute.name === 'style') active.push(`${tag}[${attribute.name}]`)
        if (['href', 'src', 'xlink:href', 'action', 'formaction'].includes(attribute.name) && /^(?:javascript|vbscript):|^data:text/i.test(attribute.value.replace(/[\s\u0000-\u001F]/g, ''))) active.push(`${tag}[${attribute.name}=${attribute.value.slice(0, 30)}]`)
      }
    }
    return { active, fired: (window as any).__xssFired === true }
  })
  expect(report.active).toEqual([])
  expect(report.fired).toBe(false)
  expect(dialogs).toEqual([])
})
