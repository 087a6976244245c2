import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { waitForReady } from './helpers'
import { passkeyApp } from './support/passkey-app'
import type { PasskeyDevice } from './support/passkey-app'
import { devicePasskeys, syncPasskeys } from './support/virtual-passkeys'

// Accounts with passkeys (NUXT_ACCOUNTS=passkeys), in Chromium with its virtual authenticator: the admin is made,
// invites a member who signs up in another browser, each sees only their own records, and the server is probed as
// an attacker would (another account's ids, no session, a used or forged invite, a replayed challenge, another
// origin, a removed account's session). Steps build on each other: one server, in order.
// The embedded database opens on the first request: seconds on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const server = passkeyApp()
const device = (browser: Browser) => server.newDevice(browser)

/** A fetch from the page (its session cookie, its origin): status and JSON body. */
function api(page: Page, path: string, method = 'GET', body?: unknown): Promise<{ status: number, body: any }> {
  return page.evaluate(async ({ path, method, body }) => {
    const response = await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: response.status, body: await response.json().catch(() => null) }
  }, { path, method, body })
}

async function openAccountSettings(page: Page) {
  await page.getByTestId('settings-open').click()
  await expect(page.getByTestId('account-who')).toBeVisible({ timeout: 20_000 })
}

let admin: PasskeyDevice
let member: PasskeyDevice
let inviteUrl = ''
let adminWorkflow = ''
let adminJob = ''
let memberWorkflow = ''

test('the first person makes the admin account with a passkey; no API answers before that', async ({ browser }) => {
  for (const path of ['/api/config', '/api/workflows', '/api/accounts', '/api/accounts/me']) {
    expect((await server.app.fetchWithSession(path)).status, path).toBe(401)
  }
  admin = await device(browser)
  await admin.page.goto(server.site)
  await expect(admin.page).toHaveURL(/\/sign-in/)
  await admin.page.getByTestId('account-name').fill('Ada')
  await admin.page.getByTestId('passkey-sign-up-submit').click()
  await waitForReady(admin.page)
  await expect(admin.page).not.toHaveURL(/sign-in/)
  expect(await devicePasskeys(admin.device)).toHaveLength(1)

  const created = await api(admin.page, '/api/workflows', 'POST', { name: 'Ada digest', model: 'plugboard/demo', firstMessage: 'what is 6*7' })
  expect(created.status).toBe(201)
  adminWorkflow = created.body.id
  const run = await api(admin.page, `/api/workflows/${adminWorkflow}/run`, 'POST', { threadId: 'ada-thread' })
  expect(run.status).toBe(201)
  adminJob = run.body.id

  // a second admin cannot be made, by the page or by a direct request
  expect((await server.app.fetchWithSession('/api/auth/status').then(response => response.json())).adminNeeded).toBe(false)
})

test('the admin invites; the invited person signs up in another browser and sees only their own workflows', async ({ browser }) => {
  await openAccountSettings(admin.page)
  await expect(admin.page.getByTestId('account-who')).toContainText('Ada')
  await admin.page.getByTestId('account-invite').click()
  inviteUrl = await admin.page.getByTestId('account-invite-url').inputValue()
  expect(inviteUrl).toMatch(new RegExp(`^${server.site}/invite/[\\w-]{43}$`))

  member = await device(browser)
  await member.page.goto(inviteUrl)
  await member.page.getByTestId('account-name').fill('Bob')
  await member.page.getByTestId('passkey-sign-up-submit').click()
  await waitForReady(member.page)
  const created = await api(member.page, '/api/workflows', 'POST', { name: 'Bob digest', model: 'plugboard/demo' })
  memberWorkflow = created.body.id

  await member.page.getByTestId('workflows-open').click()
  await expect(member.page.getByTestId('workflow-item')).toHaveText([/Bob digest/])
  expect((await api(admin.page, '/api/workflows')).body.workflows.map((row: { name: string }) => row.name)).toEqual(['Ada digest'])
})

test('account B asking for A\'s workflows, jobs and event streams by id gets 404 every time; a member is not an admin', async () => {
  const probes: Array<[string, string, unknown?]> = [
    [`/api/workflows/${adminWorkflow}`, 'GET'],
    [`/api/workflows/${adminWorkflow}`, 'PUT', { name: 'mine now', model: 'm' }],
    [`/api/workflows/${adminWorkflow}`, 'DELETE'],
    [`/api/workflows/${adminWorkflow}/run`, 'POST', { threadId: 't' }],
    [`/api/chats/${adminJob}`, 'GET'],
    [`/api/chats/${adminJob}/events`, 'GET'],
    [`/api/chats/${adminJob}/stop`, 'POST', {}],
    [`/api/chats/${adminJob}/approvals`, 'POST', { toolCallId: 'x', approved: true }],
    [`/api/chats/${adminJob}/tool-results`, 'POST', { toolCallId: 'x', result: 'y' }],
  ]
  for (const [path, method, body] of probes) expect((await api(member.page, path, method, body)).status, `${method} ${path}`).toBe(404)
  expect((await api(admin.page, `/api/workflows/${adminWorkflow}`)).status).toBe(200)
  expect((await api(admin.page, `/api/chats/${adminJob}`)).status).toBe(200)
  expect((await api(admin.page, `/api/workflows/${memberWorkflow}`)).status).toBe(404)

  expect((await api(member.page, '/api/accounts')).status).toBe(403)
  expect((await api(member.page, '/api/accounts/invites', 'POST')).status).toBe(403)
})

test('a used, forged or guessed invite is refused', async ({ browser }) => {
  const stranger = await device(browser)
  for (const url of [inviteUrl, `${server.site}/invite/forged-token`]) {
    await stranger.page.goto(url)
    await stranger.page.getByTestId('account-name').fill('Mallory')
    await stranger.page.getByTestId('passkey-sign-up-submit').click()
    await expect(stranger.page.getByTestId('passkey-error')).toContainText('invite link is not valid')
  }
  // without an invite: the admin exists already
  const direct = await api(stranger.page, '/api/accounts/sign-up', 'POST', { user: { userName: 'Mallory' }, verify: false })
  expect(direct).toMatchObject({ status: 403, body: { message: 'This server has an admin already: ask them for an invite link.' } })
  expect(await devicePasskeys(stranger.device)).toHaveLength(0)
})

test('a replayed WebAuthn answer is refused; so are requests from another origin and without a session', async () => {
  const replay = await member.page.evaluate(async () => {
    const fromB64 = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), char => char.charCodeAt(0))
    const toB64 = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    const post = async (body: unknown) => {
      const response = await fetch('/api/accounts/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      return { status: response.status, body: await response.json() }
    }
    const { body: { requestOptions, attemptId } } = await post({ verify: false })
    const credential = await navigator.credentials.get({ publicKey: { challenge: fromB64(requestOptions.challenge), rpId: requestOptions.rpId, userVerification: 'preferred' } }) as PublicKeyCredential
    const answer = credential.response as AuthenticatorAssertionResponse
    const response = {
      id: credential.id, rawId: toB64(credential.rawId), type: 'public-key', clientExtensionResults: {},
      response: { clientDataJSON: toB64(answer.clientDataJSON), authenticatorData: toB64(answer.authenticatorData), signature: toB64(answer.signature), userHandle: answer.userHandle ? toB64(answer.userHandle) : undefined },
    }
    const first = await post({ verify: true, attemptId, response })
    const second = await post({ verify: true, attemptId, response })
    return { first: first.status, second: second.body.message as string, secondStatus: second.status }
  })
  expect(replay).toEqual({ first: 200, secondStatus: 400, second: 'This passkey attempt expired or was already used. Try again.' })

  const cookie = await member.page.context().cookies().then(cookies => cookies.map(item => `${item.name}=${item.value}`).join('; '))
  const crossSite = await fetch(`${server.app.url}/api/accounts/sign-in`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', 'origin': 'http://evil.example' }, body: '{"verify":false}' })
  expect(crossSite.status).toBe(403)
  // a Host and X-Forwarded-Host of the attacker's own site: the passkey origin is the configured one
  const spoofedHost = await fetch(`${server.app.url}/api/accounts/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', 'origin': 'http://evil.example', 'host': 'evil.example', 'x-forwarded-host': 'evil.example' }, body: '{"verify":false}' })
  expect(spoofedHost.status).toBe(403)
  const noSession = await fetch(`${server.app.url}/api/workflows`)
  expect(noSession.status).toBe(401)
  expect((await fetch(`${server.app.url}/api/workflows`, { headers: { cookie } })).status).toBe(200)
})

test('the admin signs in on a second device with a synced passkey, and adds a passkey from Settings', async ({ browser }) => {
  const laptop = await device(browser)
  await syncPasskeys(admin.device, laptop.device)
  await laptop.page.goto(server.site)
  await laptop.page.getByTestId('passkey-sign-in').click()
  await waitForReady(laptop.page)
  expect((await api(laptop.page, '/api/workflows')).body.workflows.map((row: { name: string }) => row.name)).toEqual(['Ada digest'])

  // a new password manager on the laptop: "Add a passkey" registers a second credential for the same account
  await laptop.device.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop.device.authenticatorId })
  const fresh = await laptop.device.cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  await openAccountSettings(laptop.page)
  await expect(laptop.page.getByTestId('account-passkeys').locator('li')).toHaveCount(1)
  await laptop.page.getByTestId('account-add-passkey').click()
  await expect(laptop.page.getByTestId('account-passkeys').locator('li')).toHaveCount(2)
  const phone = await device(browser)
  await syncPasskeys({ cdp: laptop.device.cdp, authenticatorId: fresh.authenticatorId }, phone.device)
  await phone.page.goto(server.site)
  await phone.page.getByTestId('passkey-sign-in').click()
  await waitForReady(phone.page)
  expect((await api(phone.page, '/api/accounts/me')).body.account.name).toBe('Ada')
})

test('the admin removes the member: their session ends at once and their workflows go', async () => {
  await admin.page.reload()
  await waitForReady(admin.page)
  await openAccountSettings(admin.page)
  const row = admin.page.getByTestId('account-member').filter({ hasText: 'Bob' })
  await row.getByTestId('account-remove').click()
  await row.getByTestId('account-remove-confirm').click()
  await expect(admin.page.getByTestId('account-member')).toHaveCount(1)

  expect((await api(member.page, '/api/workflows')).status).toBe(401)
  expect((await api(member.page, '/api/auth/status')).body).toMatchObject({ signedIn: false, account: null })
  await member.page.reload()
  await expect(member.page).toHaveURL(/\/sign-in/)
  // the member's passkey no longer signs in
  await member.page.getByTestId('passkey-sign-in').click()
  await expect(member.page.getByTestId('passkey-error')).toContainText('not one of this server\'s accounts')
})
