import { expect, test } from '@playwright/test'
import type { Browser, Page, Route } from '@playwright/test'
import { sendMessage, waitForIdle, waitForReady } from './helpers'
import { passkeyApp } from './support/passkey-app'
import type { PasskeyDevice } from './support/passkey-app'
import { pngFile } from './support/png-file'
import { storedAttachments } from './support/stored-attachments'
import { syncPasskeys } from './support/virtual-passkeys'

// One person, two devices: accounts with passkeys and sync on one server. The laptop signs up; the phone signs in
// with the same passkey (copied between Chromium's virtual authenticators, as a passkey provider syncs it). Each
// device has its own IndexedDB; chats, branches and files travel through the server. Steps build on each other.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const server = passkeyApp({ NUXT_SYNC: 'on' })
type Device = PasskeyDevice
const newDevice = (browser: Browser, options?: Parameters<typeof server.newDevice>[1]) => server.newDevice(browser, options)

async function signIn(from: Device, to: Device): Promise<void> {
  await syncPasskeys(from.device, to.device)
  await to.page.goto(server.site)
  await to.page.getByTestId('passkey-sign-in').click()
  await waitForReady(to.page)
}

/** A fetch from the page (its session cookie, its origin): the status. */
function statusOf(page: Page, path: string, method = 'GET', body?: string): Promise<number> {
  return page.evaluate(async ({ path, method, body }) => (await fetch(path, { method, body })).status, { path, method, body })
}

const status = (page: Page) => page.getByTestId('sync-status')
const threadRow = (page: Page, text: string) => page.getByTestId('thread-item').filter({ hasText: text })
/** Opens the chat from the sidebar and waits until it is the open one: a message typed before that belongs to the chat left. */
async function openThreadRow(page: Page, text: string) {
  await threadRow(page, text).click({ timeout: 10_000 })
  await expect(threadRow(page, text).locator('[aria-current="page"]')).toHaveCount(1)
}
const userMessages = (page: Page) => page.locator('[data-testid="message"][data-role="user"]')

let laptop: Device
let phone: Device
let photoId = ''
let bob: Device
let handset: Device

test('sign up on the laptop, sign in on the phone with the same passkey: a chat written on one appears on the other within 2 s', async ({ browser }) => {
  laptop = await newDevice(browser)
  await laptop.page.goto(server.site)
  await expect(laptop.page).toHaveURL(/\/sign-in/)
  await laptop.page.getByTestId('account-name').fill('Ada')
  await laptop.page.getByTestId('passkey-sign-up-submit').click()
  await waitForReady(laptop.page)
  phone = await newDevice(browser)
  await signIn(laptop, phone)
  for (const { page } of [laptop, phone]) await expect(status(page)).toHaveAttribute('data-state', 'synced', { timeout: 30_000 })

  await sendMessage(laptop.page, 'Plan the trip to Lisbon')
  await waitForIdle(laptop.page)
  await expect(threadRow(phone.page, 'Plan the trip to Lisbon')).toBeVisible({ timeout: 2_000 })
  await threadRow(phone.page, 'Plan the trip to Lisbon').click()
  await expect(phone.page.locator('[data-testid="message"][data-role="assistant"]')).toHaveCount(1, { timeout: 2_000 })
})

test('a branch made on the phone (an edited question) appears on the laptop', async () => {
  await threadRow(laptop.page, 'Plan the trip to Lisbon').click()
  const question = userMessages(phone.page).first()
  await question.hover()
  await question.getByTestId('message-edit').click()
  await phone.page.getByTestId('message-editor-input').fill('Plan the trip to Porto')
  await phone.page.getByTestId('message-editor-save').click()
  await waitForIdle(phone.page)
  await expect(userMessages(phone.page).first().getByTestId('branch-position')).toHaveText('2/2')

  // The list is virtual and the reply is long: the question is rendered once scrolled to.
  await expect.poll(async () => {
    await laptop.page.getByRole('log').hover()
    await laptop.page.mouse.wheel(0, -5_000)
    return (await userMessages(laptop.page).first().getByTestId('user-text').textContent({ timeout: 1_000 }).catch(() => ''))?.trim()
  }, { timeout: 15_000 }).toBe('Plan the trip to Porto')
  await expect(userMessages(laptop.page).first().getByTestId('branch-position')).toHaveText('2/2')
  await userMessages(laptop.page).first().getByRole('button', { name: 'Previous branch' }).click()
  await expect(userMessages(laptop.page).first().getByTestId('user-text')).toHaveText('Plan the trip to Lisbon')
})

test('an image attached on the laptop shows on the phone; only its owner can fetch it', async ({ browser }) => {
  await laptop.page.getByTestId('new-thread').click()
  await laptop.page.getByTestId('composer-attach-input').setInputFiles([{ name: 'harbour.png', mimeType: 'image/png', buffer: pngFile(64, 48) }])
  await expect(laptop.page.getByTestId('composer-attachment')).toHaveCount(1)
  await sendMessage(laptop.page, 'What is in this photo?')
  await waitForIdle(laptop.page)

  await threadRow(phone.page, 'What is in this photo?').click({ timeout: 10_000 })
  const image = userMessages(phone.page).last().getByTestId('message-image').locator('img')
  await expect(image).toBeVisible({ timeout: 10_000 })
  await expect(image).toHaveAttribute('alt', 'harbour.png')
  expect(await image.evaluate((element: HTMLImageElement) => element.decode().then(() => element.naturalWidth))).toBe(64)
  photoId = (await storedAttachments(phone.page)).find(row => row.name === 'harbour.png')!.id
  expect(await statusOf(phone.page, `/api/sync/blobs/${photoId}`)).toBe(200)

  // Another account on the same server: the admin invites Bob, who signs up in a browser of his own.
  const invite = await laptop.page.evaluate(async () => (await (await fetch('/api/accounts/invites', { method: 'POST' })).json()) as { url: string })
  bob = await newDevice(browser)
  await bob.page.goto(invite.url)
  await bob.page.getByTestId('account-name').fill('Bob')
  await bob.page.getByTestId('passkey-sign-up-submit').click()
  await waitForReady(bob.page)
  expect(await statusOf(bob.page, `/api/sync/blobs/${photoId}`)).toBe(404)
  // Writing under A's id stores Bob's own file: A's is untouched.
  expect(await statusOf(bob.page, `/api/sync/blobs/${photoId}?message=m1&mime=image/png`, 'PUT', 'not a photo')).toBe(200)
  expect(await statusOf(phone.page, `/api/sync/blobs/${photoId}`)).toBe(200)
  const pulled = await bob.page.evaluate(async () => (await (await fetch('/api/sync/pull?cursor=0')).json()) as { changes: unknown[] })
  expect(pulled.changes).toEqual([])
  // No session: 401, never the file.
  expect((await fetch(`${server.app.url}/api/sync/blobs/${photoId}`)).status).toBe(401)
})

/** The names of the documents whose search passages the page's IndexedDB holds. */
function passageDocuments(page: Page): Promise<string[]> {
  return page.evaluate(() => new Promise<string[]>((resolve, reject) => {
    const open = indexedDB.open('plugboard')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const rows = open.result.transaction('documentPassages').objectStore('documentPassages').getAll()
      rows.onsuccess = () => {
        open.result.close()
        resolve([...new Set((rows.result as Array<{ name: string }>).map(row => row.name))])
      }
    }
  }))
}

test('a Markdown file attached on the laptop is searchable on the phone: the model there cites its passage', async () => {
  await laptop.page.getByTestId('new-thread').click()
  await laptop.page.getByTestId('composer-attach-input').setInputFiles([{ name: 'ferry.md', mimeType: 'text/markdown', buffer: Buffer.from('# Capri\n\nThe ferry to Capri leaves at 7:40 from Molo Beverello.') }])
  await expect(laptop.page.getByTestId('composer-attachment')).toHaveCount(1)
  await sendMessage(laptop.page, 'Keep my ferry notes')
  await waitForIdle(laptop.page)

  // Passages do not travel: the phone builds them from the file once it has fetched it.
  await expect.poll(() => passageDocuments(phone.page), { timeout: 30_000 }).toContain('ferry.md')
  await openThreadRow(phone.page, 'Keep my ferry notes')
  await sendMessage(phone.page, 'Does the attached file say when the ferry leaves?')
  await waitForIdle(phone.page)
  await expect(phone.page.locator('[data-testid="tool-card"][data-tool="search_documents"]').first()).toBeVisible()
  const reply = phone.page.locator('[data-testid="message"][data-role="assistant"]').last()
  await expect(reply).toContainText('The ferry to Capri leaves at 7:40 from Molo Beverello.')
  await expect(reply).toContainText('ferry.md')
})

test('the file routes refuse another site, a missing session and a file over the cap', async () => {
  const cookie = (await bob.page.context().cookies()).map(each => `${each.name}=${each.value}`).join('; ')
  const put = (headers: Record<string, string>, body: string) => fetch(`${server.site}/api/sync/blobs/probe?message=m1&mime=image/png`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...headers }, body })
  expect((await put({ cookie, origin: server.site }, 'ok')).status).toBe(200)
  expect((await put({ cookie, 'origin': 'http://evil.example', 'x-forwarded-host': 'evil.example' }, 'x')).status).toBe(403)
  expect((await put({ origin: server.site }, 'x')).status).toBe(401)
  const huge = await put({ cookie, origin: server.site }, 'x'.repeat(20 * 1024 * 1024 + 1))
  expect(huge.status).toBe(413)
  expect((await huge.json()).message).toMatch(/larger than this server accepts/)
  expect((await fetch(`${server.site}/api/sync/blobs/probe`, { headers: { cookie } })).status).toBe(200)
  expect((await fetch(`${server.site}/api/sync/blobs/${'x'.repeat(200)}?message=m1&mime=image/png`, { method: 'PUT', headers: { cookie, origin: server.site }, body: 'x' })).status).toBe(400)
})

test('both devices edit offline, reconnect and converge', async () => {
  await laptop.page.context().setOffline(true)
  await phone.page.context().setOffline(true)
  await threadRow(laptop.page, 'Plan the trip to Lisbon').getByTestId('thread-pin').click()
  await expect(status(laptop.page)).toContainText('Offline · 1 pending')
  await threadRow(phone.page, 'What is in this photo?').getByTestId('thread-rename').click()
  await phone.page.getByTestId('thread-rename-input').fill('Harbour photo')
  await phone.page.getByTestId('thread-rename-input').press('Enter')
  await expect(status(phone.page)).toContainText('Offline · 1 pending')

  await laptop.page.context().setOffline(false)
  await phone.page.context().setOffline(false)
  for (const { page } of [laptop, phone]) {
    await expect(status(page)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 })
    await expect(page.locator('[data-testid="thread-group"][data-group="pinned"] [data-testid="thread-item"]')).toContainText('Plan the trip to Lisbon', { timeout: 5_000 })
    await expect(threadRow(page, 'Harbour photo')).toBeVisible({ timeout: 5_000 })
  }
})

test('deleting a chat removes its file on every device and on the server', async () => {
  const row = threadRow(laptop.page, 'Harbour photo')
  await row.hover()
  // The first press asks, the second deletes.
  await row.getByTestId('thread-delete').click()
  await row.getByTestId('thread-delete').click()
  await expect(threadRow(phone.page, 'Harbour photo')).toHaveCount(0, { timeout: 10_000 })
  await expect.poll(() => statusOf(phone.page, `/api/sync/blobs/${photoId}`), { timeout: 10_000 }).toBe(404)
})

test('the device state on a phone: synced, offline with what is pending, an error with Retry', async ({ browser }) => {
  handset = await newDevice(browser, { viewport: { width: 390, height: 844 } })
  // From the phone, the authenticator that used the passkey last: its signature counter is the one the server knows.
  await signIn(phone, handset)
  const { page } = handset
  await page.getByRole('button', { name: 'Open chats' }).click()
  // The chat list and its sync state slide over the page (the sidebar's copies are hidden at this width).
  const sheet = page.getByRole('dialog')
  const state = sheet.getByTestId('sync-status-phone')
  await expect(state).toBeVisible({ timeout: 20_000 })
  await expect(state).toHaveAttribute('data-state', 'synced', { timeout: 30_000 })
  await expect(state).toContainText('Synced')
  await expect(sheet.getByTestId('thread-item').filter({ hasText: 'Plan the trip to Lisbon' })).toBeVisible({ timeout: 10_000 })
  await page.screenshot({ path: '/tmp/sync2-state-phone-light.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: '/tmp/sync2-state-phone-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })

  await page.context().setOffline(true)
  await sheet.getByTestId('thread-item').filter({ hasText: 'Plan the trip to Lisbon' }).getByTestId('thread-pin').click()
  await expect(state).toHaveAttribute('data-state', 'offline', { timeout: 10_000 })
  await expect(state).toContainText('Offline · 1 pending')

  // Back online to a server that refuses: the state says why and waits for Retry, which syncs once the server answers again.
  await page.route('**/api/sync/pull**', route => route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ message: 'Too many requests: wait a minute.' }) }))
  await page.context().setOffline(false)
  await expect(state).toHaveAttribute('data-state', 'error', { timeout: 15_000 })
  await expect(state.getByTestId('sync-error')).toContainText('Too many requests: wait a minute.')
  await page.screenshot({ path: '/tmp/sync2-state-phone-error.png' })
  await page.unroute('**/api/sync/pull**')
  await state.getByRole('button', { name: 'Retry' }).click()
  await expect(state).toHaveAttribute('data-state', 'synced', { timeout: 15_000 })

  // The laptop's view of the same state, light and dark.
  await expect(status(laptop.page)).toHaveAttribute('data-state', 'synced', { timeout: 15_000 })
  await laptop.page.screenshot({ path: '/tmp/sync2-state-desktop-light.png' })
  await laptop.page.emulateMedia({ colorScheme: 'dark' })
  await laptop.page.screenshot({ path: '/tmp/sync2-state-desktop-dark.png' })
  await laptop.page.emulateMedia({ colorScheme: 'light' })
})

test('a file the server fails to hand out is fetched after a reload: the device state counts it meanwhile', async ({ browser }) => {
  const tablet = await newDevice(browser)
  const failFiles = (route: Route) => route.request().method() === 'GET'
    ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Database unavailable' }) })
    : route.continue()
  await tablet.page.context().route('**/api/sync/blobs/**', failFiles)
  // From the handset, the authenticator that used the passkey last.
  await signIn(handset, tablet)
  await expect(status(tablet.page)).toHaveAttribute('data-state', 'synced', { timeout: 30_000 })
  await expect(tablet.page.getByTestId('sync-files-waiting')).toContainText('1 file still to fetch', { timeout: 15_000 })
  expect(await passageDocuments(tablet.page)).toEqual([])

  await tablet.page.context().unroute('**/api/sync/blobs/**', failFiles)
  await tablet.page.reload()
  await waitForReady(tablet.page)
  await expect.poll(() => passageDocuments(tablet.page), { timeout: 30_000 }).toContain('ferry.md')
  await expect(tablet.page.getByTestId('sync-files-waiting')).toHaveCount(0)
  expect((await storedAttachments(tablet.page)).map(row => row.name)).toContain('ferry.md')
})
