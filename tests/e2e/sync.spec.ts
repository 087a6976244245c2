import { expect, test } from '@playwright/test'
import type { Browser } from '@playwright/test'
import { newAppContext, openApp, sendMessage, waitForIdle } from './helpers'
import { freePort, startApp } from './support/app-instance'
import { syncDevices, syncStatusOf, threadRow } from './support/sync-devices'
import type { AppInstance } from './support/app-instance'

// Sync with accounts off: one browser session is one owner, so two browser contexts sharing its cookie are two
// devices of one person. Each has its own IndexedDB; the server's database holds the synced copy.

let app: AppInstance
test.beforeAll(async () => {
  app = await startApp({ NUXT_SYNC: 'on' })
})
test.afterAll(async () => {
  await app?.stop()
})

const devices = syncDevices()
test.afterEach(() => devices.closeAll())
const device = (browser: Browser, cookie: string) => devices.open(browser, app.url, cookie)
const status = syncStatusOf

test('a chat written on one device appears on the other within 2 s, and both converge after editing offline', async ({ browser }) => {
  test.setTimeout(120_000)
  const [laptop, phone] = [await device(browser, app.cookie), await device(browser, app.cookie)]
  await expect(status(laptop)).toHaveAttribute('data-state', 'synced', { timeout: 20_000 })
  await expect(status(phone)).toHaveAttribute('data-state', 'synced', { timeout: 20_000 })
  await expect(status(laptop)).toContainText('Synced')

  await sendMessage(laptop, 'Plan the trip to Lisbon')
  await waitForIdle(laptop)
  await expect(threadRow(phone, 'Plan the trip to Lisbon')).toBeVisible({ timeout: 2_000 })
  await threadRow(phone, 'Plan the trip to Lisbon').click()
  await expect(phone.locator('[data-testid="message"][data-role="assistant"]')).toHaveCount(1, { timeout: 2_000 })

  // A second chat, started on the phone.
  await phone.getByTestId('new-thread').click()
  await sendMessage(phone, 'Pack list for Porto')
  await waitForIdle(phone)
  await expect(threadRow(laptop, 'Pack list for Porto')).toBeVisible({ timeout: 2_000 })

  // Both go offline and change a chat each: the laptop pins the first, the phone renames the second. First each has
  // pushed what it wrote (on a loaded machine the phone's reply could still be waiting, and count as pending).
  await expect(status(laptop)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 })
  await expect(status(phone)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 })
  await laptop.context().setOffline(true)
  await phone.context().setOffline(true)
  await threadRow(laptop, 'Plan the trip to Lisbon').getByTestId('thread-pin').click()
  await expect(status(laptop)).toHaveAttribute('data-state', 'offline')
  await expect(status(laptop)).toContainText('Offline · 1 pending')
  await threadRow(phone, 'Pack list for Porto').getByTestId('thread-rename').click()
  await phone.getByTestId('thread-rename-input').fill('Porto packing')
  await phone.getByTestId('thread-rename-input').press('Enter')
  await expect(status(phone)).toHaveAttribute('data-state', 'offline')
  await expect(status(phone)).toContainText('Offline · 1 pending')

  await laptop.context().setOffline(false)
  await phone.context().setOffline(false)
  await expect(status(laptop)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 })
  await expect(status(phone)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 })
  for (const page of [laptop, phone]) {
    await expect(page.locator('[data-testid="thread-group"][data-group="pinned"] [data-testid="thread-item"]')).toContainText('Plan the trip to Lisbon', { timeout: 5_000 })
    await expect(threadRow(page, 'Porto packing')).toBeVisible({ timeout: 5_000 })
  }
})

test('a push is checked whole: a hostile or oversized one stores nothing, a spoofed owner is ignored, another session sees nothing', async () => {
  // Two owners of their own: fresh browser sessions, apart from the other tests' devices.
  const session = async () => {
    const page = await fetch(`${app.url}/`)
    await page.text()
    return (page.headers.getSetCookie?.() ?? []).map(item => item.split(';')[0]).join('; ')
  }
  const [victimCookie, otherCookie] = [await session(), await session()]
  expect(otherCookie).not.toBe(victimCookie)
  const push = (body: unknown, cookie = victimCookie) => fetch(`${app.url}/api/sync/push`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) })
  const pull = async (cookie = victimCookie) => (await (await fetch(`${app.url}/api/sync/pull?cursor=0`, { headers: { cookie } })).json()) as { changes: Array<{ id: string, body: Record<string, unknown> | null }> }
  const hlc = `${String(Date.now()).padStart(16, '0')}:0000:attacker`
  const thread = (id: string, patch: Record<string, unknown> = {}) => ({ kind: 'thread', id, hlc, deleted: false, body: { id, title: 'Secret', createdAt: 1, updatedAt: 1, ...patch } })

  expect((await push({ changes: [thread('victim-thread')] })).status).toBe(200)
  // One bad change in a batch refuses all of it.
  const mixed = await push({ changes: [thread('good-one'), { ...thread('bad-one'), kind: 'attachment' }] })
  expect(mixed.status).toBe(400)
  expect((await mixed.json()).message).toMatch(/Not a valid sync push/)
  expect((await push({ changes: [thread('far-future', {})].map(change => ({ ...change, hlc: `${String(Date.now() + 3_600_000).padStart(16, '0')}:0000:attacker` })) })).status).toBe(400)
  expect((await push('{"changes": [')).status).toBe(400)
  const huge = await fetch(`${app.url}/api/sync/push`, { method: 'POST', headers: { 'content-type': 'application/json', 'cookie': victimCookie }, body: JSON.stringify({ changes: [thread('huge', { title: 'x'.repeat(5 * 1024 * 1024) })] }) })
  expect(huge.status).toBe(413)
  expect((await pull()).changes.map(change => change.id)).toEqual(['victim-thread'])

  // The other session writes the same id with a later clock and an owner field of its own choosing.
  const later = `${String(Date.now() + 1000).padStart(16, '0')}:0000:attacker`
  expect((await push({ ownerId: 'victim', changes: [{ ...thread('victim-thread', { title: 'Overwritten?' }), hlc: later, ownerId: 'victim' }] }, otherCookie)).status).toBe(200)
  expect((await pull()).changes.map(change => change.body?.title)).toEqual(['Secret'])
  expect((await pull(otherCookie)).changes.map(change => change.body?.title)).toEqual(['Overwritten?'])
  // No session: nothing.
  expect((await fetch(`${app.url}/api/sync/pull?cursor=0`)).status).toBe(401)
  expect((await fetch(`${app.url}/api/sync/events`)).status).toBe(401)
})

test('a browser that already has chats asks once before uploading them, then the other device has them', async ({ browser }) => {
  test.setTimeout(180_000)
  // The same origin (port) first without sync, so the browser keeps a chat of its own, then with sync.
  const port = await freePort()
  const env = { NUXT_SESSION_PASSWORD: 'sync-consent-test-session-password-0123456789' }
  let plain: AppInstance | undefined = await startApp(env, { port })
  const context = await newAppContext(browser)
  devices.adopt(context)
  const laptop = await context.newPage()
  try {
    await openApp(laptop, plain.url)
    await sendMessage(laptop, 'Notes kept before sync')
    await waitForIdle(laptop)
    await expect(status(laptop)).toHaveCount(0)
  }
  finally {
    await plain.stop()
    plain = undefined
  }
  const synced = await startApp({ ...env, NUXT_SYNC: 'on' }, { port })
  try {
    await openApp(laptop, synced.url)
    await expect(status(laptop)).toHaveAttribute('data-state', 'consent', { timeout: 20_000 })
    await expect(status(laptop)).toContainText('Upload your 1 local chat?')
    await laptop.getByTestId('sync-upload').click()
    // The first sync request of this instance opens its database.
    await expect(status(laptop)).toHaveAttribute('data-state', 'synced', { timeout: 60_000 })
    const cookie = (await context.cookies()).find(item => item.name === 'plugboard-session')!
    const phoneContext = await newAppContext(browser, { storageState: { cookies: [cookie], origins: [] } })
    devices.adopt(phoneContext)
    const phone = await phoneContext.newPage()
    await openApp(phone, synced.url)
    await expect(threadRow(phone, 'Notes kept before sync')).toBeVisible({ timeout: 10_000 })
    // Asked once: a reload does not ask again.
    await openApp(laptop, synced.url)
    await expect(status(laptop)).toHaveAttribute('data-state', 'synced', { timeout: 20_000 })
  }
  finally {
    await synced.stop()
  }
})
