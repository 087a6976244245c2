import { expect, test } from '@playwright/test'
import type { Browser } from '@playwright/test'
import { sendMessage, waitForIdle } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { syncDevices, syncStatusOf, threadRow } from './support/sync-devices'
import { postgresMissing, startPostgresServer } from '../unit/helpers/postgres-server'
import { startRedisServer } from '../unit/helpers/redis-server'

// One site served by two app instances on one Postgres and one Redis: a device whose event stream is held by
// instance B hears of a change pushed through instance A (Redis pub/sub), and pulls it from the shared database.
// The devices only pull when told (or when they push), so a chat showing up on the other one proves the fan-out.

const cleanups: Array<() => unknown> = []
const devices = syncDevices()
test.afterEach(async () => {
  await devices.closeAll()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A device of the owner whose session is `cookie`, connected to `app`. */
const device = (browser: Browser, app: AppInstance, cookie: string) => devices.open(browser, app.url, cookie)
const status = syncStatusOf

test('a chat written on a device of instance A shows on a device of instance B, and back', async ({ browser }) => {
  const missing = postgresMissing()
  test.skip(Boolean(missing), missing)
  test.setTimeout(240_000)
  const [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()])
  cleanups.push(() => postgres.stop(), () => redis.stop())
  // The offline demo model answers; instances share sessions only when they share the seal password.
  const env = { NUXT_SYNC: 'on', NUXT_DATABASE_URL: postgres.url, NUXT_REDIS_URL: redis.url, NUXT_SESSION_PASSWORD: 'sync-instances-test-session-password-0123456789' }
  const [a, b] = await Promise.all([startApp(env), startApp(env)])
  cleanups.push(() => a.stop(), () => b.stop())

  // One person (A's session, which B reads too: the instances share the seal password) with a device on each.
  const [laptop, phone] = [await device(browser, a, a.cookie), await device(browser, b, a.cookie)]
  await expect(status(laptop)).toHaveAttribute('data-state', 'synced', { timeout: 60_000 })
  await expect(status(phone)).toHaveAttribute('data-state', 'synced', { timeout: 60_000 })

  await sendMessage(laptop, 'Plan the trip to Lisbon')
  await waitForIdle(laptop)
  await expect(threadRow(phone, 'Plan the trip to Lisbon')).toBeVisible({ timeout: 30_000 })
  await threadRow(phone, 'Plan the trip to Lisbon').click()
  await expect(phone.locator('[data-testid="message"][data-role="assistant"]')).toHaveCount(1, { timeout: 30_000 })

  await phone.getByTestId('new-thread').click()
  await sendMessage(phone, 'Pack list for Porto')
  await waitForIdle(phone)
  await expect(threadRow(laptop, 'Pack list for Porto')).toBeVisible({ timeout: 30_000 })
  await expect(status(laptop)).toHaveAttribute('data-state', 'synced', { timeout: 30_000 })
  await expect(status(phone)).toHaveAttribute('data-state', 'synced', { timeout: 30_000 })
})
