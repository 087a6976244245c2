import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { FAKE_URL, openApp } from './helpers'
import { freePort, startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { postgresMissing, startPostgresServer } from '../unit/helpers/postgres-server'

// The server's own records (workflows) in its database: the embedded PGlite folder by default, a real Postgres with
// NUXT_DATABASE_URL that several instances share.

const SERVER_KEY_ENV = {
  NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
  NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`,
  // A restarted instance and a sibling read the same sessions only with the same seal password.
  NUXT_SESSION_PASSWORD: 'server-database-test-session-password-0123456789',
}

const started: AppInstance[] = []
const cleanups: Array<() => unknown> = []
test.afterEach(async () => {
  for (const app of started.splice(0)) await app.stop()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function launch(env: Record<string, string>, options: { port?: number } = {}): Promise<AppInstance> {
  const app = await startApp({ ...SERVER_KEY_ENV, ...env }, options)
  started.push(app)
  return app
}

async function health(app: AppInstance): Promise<{ status: number, body: { ok: boolean, database: { ok: boolean, kind?: string } } }> {
  const response = await app.fetchWithSession('/api/health')
  return { status: response.status, body: await response.json() }
}

test('a workflow saved in the Workflows panel is still there after the server restarts', async ({ page }) => {
  test.setTimeout(180_000)
  const parent = mkdtempSync(join(tmpdir(), 'plugboard-e2e-kept-db-'))
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }))
  const env = { NUXT_DATABASE_DIR: join(parent, 'pglite') }
  const port = await freePort()
  let app = await launch(env, { port })
  expect(await health(app)).toMatchObject({ status: 200, body: { ok: true, database: { ok: true, kind: 'pglite' } } })

  await openApp(page, app.url)
  await page.getByTestId('workflows-open').click()
  const panel = page.getByTestId('workflows-panel')
  await panel.getByTestId('workflow-name').fill('Kept across restarts')
  await panel.getByTestId('workflow-model').fill('fake/tools')
  await panel.getByTestId('workflow-first').fill('What is 2+2?')
  await panel.getByTestId('workflow-save').click()
  await expect(panel.getByTestId('workflow-item')).toHaveCount(1)

  await app.stop()
  started.splice(started.indexOf(app), 1)
  app = await launch(env, { port })
  await openApp(page, app.url)
  await page.getByTestId('workflows-open').click()
  // the restarted server opens its database on the first request: the panel says it is loading until the list comes
  const list = page.getByTestId('workflows-panel').getByTestId('workflows-list')
  await expect(list).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 })
  await expect(list.getByTestId('workflow-item')).toHaveCount(1)
  await expect(list.getByTestId('workflow-item')).toContainText('Kept across restarts')
})

test('two instances on one Postgres share a session\'s workflows and its cap of 50, however the creates race', async () => {
  const missing = postgresMissing()
  test.skip(Boolean(missing), missing)
  test.setTimeout(180_000)
  const postgres = await startPostgresServer()
  cleanups.push(() => postgres.stop())
  const [a, b] = await Promise.all([launch({ NUXT_DATABASE_URL: postgres.url }), launch({ NUXT_DATABASE_URL: postgres.url })])
  for (const app of [a, b]) expect(await health(app)).toMatchObject({ status: 200, body: { ok: true, database: { ok: true, kind: 'postgres' } } })

  // One browser session (A's cookie) talking to either instance.
  const send = (app: AppInstance, path: string, method = 'GET', body?: unknown) => app.fetchWithSession(path, {
    method,
    headers: { 'cookie': a.cookie, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const created = await send(a, '/api/workflows', 'POST', { name: 'Made on A', model: 'fake/tools' })
  expect(created.status).toBe(201)
  const { id } = await created.json() as { id: string }
  expect(await (await send(b, `/api/workflows/${id}`)).json()).toMatchObject({ id, name: 'Made on A' })
  expect((await send(b, `/api/workflows/${id}`, 'PUT', { name: 'Edited on B', model: 'fake/tools' })).status).toBe(200)
  expect(await (await send(a, `/api/workflows/${id}`)).json()).toMatchObject({ id, name: 'Edited on B' })

  const statuses = await Promise.all(Array.from({ length: 60 }, (_, n) => send(n % 2 ? b : a, '/api/workflows', 'POST', { name: `Race ${n}`, model: 'fake/tools' }).then(response => response.status)))
  expect(statuses.filter(status => status === 201)).toHaveLength(49)
  expect(statuses.filter(status => status === 409)).toHaveLength(11)
  const listed = await (await send(b, '/api/workflows')).json() as { workflows: unknown[] }
  expect(listed.workflows).toHaveLength(50)
  // Another session sees none of them, on either instance.
  for (const app of [a, b]) expect(await (await app.fetchWithSession('/api/workflows', { headers: { cookie: b.cookie } })).json()).toEqual({ workflows: [] })
})
