import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { newAppContext, openApp, sendMessage, waitForIdle, watchCspViolations } from './helpers'

/** Requests a shared page must never make: chats, tools, MCP. */
const FORBIDDEN_REQUEST = /\/api\/(?:chats|tools|mcp|workflows|openrouter|demo)\b/

/** A fresh browser (no session, no stored chats) opening `url`, with what it requests and any CSP violation kept. */
async function openAsStranger(browser: Browser, url: string, options: { viewport?: { width: number, height: number }, colorScheme?: 'light' | 'dark' } = {}) {
  const context = await newAppContext(browser, { viewport: options.viewport ?? { width: 1280, height: 800 }, colorScheme: options.colorScheme ?? 'light' })
  const page = await context.newPage()
  const requests: string[] = []
  page.on('request', request => requests.push(new URL(request.url()).pathname))
  const violations = await watchCspViolations(page)
  const response = await page.goto(url)
  return { context, page, requests, violations, status: response?.status() }
}

/** POSTs a snapshot from the app's page (its session, same origin) and returns the status and body. */
function postSnapshot(page: Page, body: string) {
  return page.evaluate(async (text) => {
    const response = await fetch('/api/share-links', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
    return { status: response.status, body: await response.json().catch(() => null) as Record<string, unknown> | null }
  }, body)
}

function listLinks(page: Page) {
  return page.evaluate(async () => {
    const response = await fetch('/api/share-links')
    return { status: response.status, links: response.ok ? ((await response.json()) as { links: { id: string, title: string }[] }).links : [] }
  })
}

const snapshotOf = (title: string, content: string) => ({ version: 1, title, takenAt: Date.now(), messages: [{ id: 'm1', role: 'user', content: 'Hi', status: 'complete', createdAt: 1 }, { id: 'm2', role: 'assistant', content, status: 'complete', createdAt: 2 }] })

test.describe('sharing a chat', () => {
  test('a demo chat with a tool card, shared, opens read-only for a stranger and says revoked once revoked', async ({ page, browser }) => {
    test.setTimeout(90_000)
    await openApp(page)
    await sendMessage(page, 'What is 12 * 7?')
    await waitForIdle(page)
    await expect(page.getByTestId('tool-cards').first()).toBeVisible()
    // what the chat shows, to find again in the shared copy (a run that timed out on a busy machine included)
    const cardText = await page.getByTestId('tool-cards').first().textContent()
    const replyText = (await page.locator('[data-testid="message"][data-role="assistant"]').last().locator('[data-slot="content"]').textContent())!.trim()

    await page.getByTestId('history-menu').click()
    await page.getByRole('menuitem', { name: 'Share link…' }).click()
    await page.getByTestId('share-create').click()
    const url = await page.getByTestId('share-link-url').inputValue()
    expect(url).toMatch(/\/s\/[\w-]{43}$/)
    await expect(page.getByTestId('share-link')).toHaveCount(1)

    const stranger = await openAsStranger(browser, url)
    expect(stranger.status).toBe(200)
    const shared = stranger.page
    await expect(shared.getByTestId('shared-chat-kicker')).toContainText(/Shared chat · snapshot of/)
    await expect(shared.getByTestId('shared-chat-title')).toContainText('What is 12 * 7?')
    await expect(shared.locator('[data-testid="message"][data-role="user"]')).toContainText('What is 12 * 7?')
    const card = shared.getByTestId('tool-cards').first()
    await expect(card).toBeVisible()
    await expect(card).toHaveText(cardText!)
    await expect(shared.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText(replyText)
    // read-only: no composer, no tree actions, no approval buttons
    await expect(shared.getByTestId('composer-input')).toHaveCount(0)
    await expect(shared.getByRole('button', { name: /retry|regenerate|edit|allow/i })).toHaveCount(0)
    expect(await shared.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex')
    const pageResponse = await shared.request.get(url)
    expect(pageResponse.headers()['x-robots-tag']).toContain('noindex')

    // screenshots: desktop and phone, light and dark
    await shared.screenshot({ path: 'test-results/share/shared-chat-desktop-light.png', fullPage: true })
    await shared.emulateMedia({ colorScheme: 'dark' })
    await expect(shared.locator('html')).toHaveClass(/dark/)
    await shared.screenshot({ path: 'test-results/share/shared-chat-desktop-dark.png', fullPage: true })
    for (const colorScheme of ['light', 'dark'] as const) {
      const phone = await openAsStranger(browser, url, { viewport: { width: 390, height: 844 }, colorScheme })
      await expect(phone.page.getByTestId('tool-cards').first()).toBeVisible()
      await phone.page.screenshot({ path: `test-results/share/shared-chat-phone-${colorScheme}.png`, fullPage: true })
      expect(phone.violations).toEqual([])
      await phone.context.close()
    }

    expect(stranger.requests.filter(path => FORBIDDEN_REQUEST.test(path))).toEqual([])
    expect(stranger.violations).toEqual([])

    await page.getByTestId('share-link-revoke').click()
    await expect(page.getByTestId('share-link')).toHaveAttribute('data-revoked', 'true')
    const revoked = await shared.goto(url)
    expect(revoked?.status()).toBe(410)
    await expect(shared.getByRole('heading', { name: 'This link was revoked' })).toBeVisible()
    expect(await shared.locator('script').count()).toBe(0)
    await stranger.context.close()
  })

  test('another session cannot list or revoke my links; wrong tokens, huge and malformed snapshots are refused with nothing stored', async ({ page, browser, playwright }) => {
    test.setTimeout(90_000)
    await openApp(page)
    const created = await postSnapshot(page, JSON.stringify({ snapshot: snapshotOf('Mine', 'Private words') }))
    expect(created.status).toBe(201)
    const linkId = String(created.body!.id)
    const path = String(created.body!.path)

    const other = await newAppContext(browser)
    const otherPage = await other.newPage()
    await openApp(otherPage)
    expect((await listLinks(otherPage)).links.map(link => link.id)).not.toContain(linkId)
    const revokeByOther = await otherPage.evaluate(async id => (await fetch(`/api/share-links/${id}`, { method: 'DELETE' })).status, linkId)
    expect(revokeByOther).toBe(404)
    await other.close()

    // no session at all
    const anonymous = await playwright.request.newContext({ baseURL: new URL(page.url()).origin })
    expect((await anonymous.get('/api/share-links')).status()).toBe(401)
    expect((await anonymous.delete(`/api/share-links/${linkId}`)).status()).toBe(401)
    expect((await anonymous.post('/api/share-links', { data: { snapshot: snapshotOf('x', 'y') } })).status()).toBe(401)
    // the link itself needs no session
    expect((await anonymous.get(`/api${path.replace('/s/', '/shared/')}`)).status()).toBe(200)
    // wrong tokens: a plain page, no script, and the API says 404
    for (const wrong of ['/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/s/not-a-token', '/s/%E0%A4%A']) {
      const response = await anonymous.get(wrong)
      expect(response.status(), wrong).toBe(404)
      expect(await response.text()).not.toContain('<script')
    }
    expect((await anonymous.get('/api/shared/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status()).toBe(404)
    // a spoofed origin cannot share through a victim's session
    expect((await anonymous.post('/api/share-links', { data: { snapshot: snapshotOf('x', 'y') }, headers: { origin: 'https://evil.example' } })).status()).toBe(403)
    await anonymous.dispose()

    const before = (await listLinks(page)).links.length
    const huge = await postSnapshot(page, JSON.stringify({ snapshot: snapshotOf('Huge', 'x'.repeat(6 * 1024 * 1024)) }))
    expect(huge.status).toBe(413)
    expect(String(huge.body?.message)).toMatch(/too large to share.*5 MB/)
    for (const malformed of ['{"snapshot":', JSON.stringify({ snapshot: { version: 1 } }), JSON.stringify({ snapshot: { ...snapshotOf('x', 'y'), mcpApp: '<script>' } })]) {
      const refused = await postSnapshot(page, malformed)
      expect(refused.status, malformed).toBe(400)
      expect(String(refused.body?.message)).toMatch(/shared chat/i)
    }
    expect((await listLinks(page)).links.length).toBe(before)
  })

  test('the XSS corpus in a shared chat stays inert, with no CSP violation', async ({ page, browser }) => {
    test.setTimeout(150_000)
    const payloads = JSON.parse(readFileSync(new URL('../fixtures/corpora/xss-vectors/xss-vectors.json', import.meta.url), 'utf8')) as string[]
    const parts = payloads.map((payload, index) => index % 3 === 1 ? `[link ${index}](${payload.replace(/\s+/g, ' ')})` : index % 3 === 2 ? `![image ${index}](${payload.replace(/\s+/g, ' ')})` : payload)
    // 100 payloads a reply: each reply shows its blocks over frames of its own, as a chat does
    const replies = Array.from({ length: Math.ceil(parts.length / 100) }, (_, index) => ({ id: `r${index}`, role: 'assistant', content: parts.slice(index * 100, index * 100 + 100).join('\n\n'), status: 'complete', createdAt: 10 + index }))
    replies.at(-1)!.content += '\n\nXSS corpus complete.'
    const snapshot = {
      version: 1,
      title: payloads[5]!.slice(0, 400),
      takenAt: Date.now(),
      messages: [
        { id: 'u', role: 'user', content: payloads.slice(0, 50).join('\n'), status: 'complete', createdAt: 1, files: payloads.slice(0, 5).map(each => each.slice(0, 300)) },
        { id: 'a', role: 'assistant', content: '', status: 'complete', createdAt: 2, toolCalls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: payloads[7]! } }] },
        { id: 't', role: 'tool', content: payloads.slice(0, 30).join('\n'), toolCallId: 'c1', toolName: 'calculate', toolArguments: payloads[7]!, toolStatus: 'done', toolResultFull: payloads.slice(0, 30).join('\n'), status: 'complete', createdAt: 3, mcpAppName: payloads[9]!.slice(0, 300) },
        ...replies,
      ],
    }
    await openApp(page)
    const created = await postSnapshot(page, JSON.stringify({ snapshot }))
    expect(created.status).toBe(201)

    const context = await newAppContext(browser)
    const shared = await context.newPage()
    const dialogs: string[] = []
    shared.on('dialog', async (dialog) => {
      dialogs.push(dialog.message())
      await dialog.dismiss()
    })
    const violations = await watchCspViolations(shared)
    await shared.addInitScript(() => {
      for (const name of ['alert', 'prompt', 'confirm'] as const) (window as any)[name] = () => { (window as any).__xssFired = true }
    })
    await shared.goto(String(created.body!.path))
    const reply = shared.locator('[data-testid="message"][data-role="assistant"]').last()
    await expect(reply).toBeVisible({ timeout: 20_000 })
    await expect(shared.locator('[data-rendering]')).toHaveCount(0, { timeout: 90_000 })
    await expect(reply).toContainText('XSS corpus complete.')
    await expect.poll(() => shared.evaluate(() => [...document.querySelectorAll('img')].every(image => image.complete || image.loading === 'lazy')), { timeout: 10_000 }).toBe(true)
    const report = await shared.getByTestId('shared-chat-page').evaluate((element) => {
      const active: string[] = []
      for (const node of element.querySelectorAll('*')) {
        const tag = node.tagName.toLowerCase()
        if (['script', 'iframe', 'object', 'embed', 'form', 'base', 'meta', 'link'].includes(tag)) active.push(`<${tag}>`)
        for (const attribute of node.attributes) {
          if (/^on/i.test(attribute.name) || attribute.name === 'srcdoc') active.push(`${tag}[${attribute.name}]`)
          if (['href', 'src', 'xlink:href', 'action', 'formaction'].includes(attribute.name) && /^(?:javascript|vbscript):|^data:text/i.test(attribute.value.replace(/[\s\u0000-\u001F]/g, ''))) active.push(`${tag}[${attribute.name}=${attribute.value.slice(0, 30)}]`)
        }
      }
      return { active, fired: (window as any).__xssFired === true }
    })
    expect(report.active).toEqual([])
    expect(report.fired).toBe(false)
    expect(dialogs).toEqual([])
    expect(violations).toEqual([])
    await context.close()
  })
})
