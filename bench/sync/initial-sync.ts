// Initial sync of a large account on a new device: 10,000 messages (100 chats of 100) already on the server, then a
// fresh Chromium profile with the owner's session opens the built app; measured from the page's start to the sync
// status saying Synced (every page pulled over HTTP and written to IndexedDB, active paths marked).
// Needs `npx nuxt build` first. Run: CHROMIUM_PATH=/usr/bin/chromium node --import tsx bench/sync/initial-sync.ts [--messages 10000]
import { chromium } from '@playwright/test'
import { startApp } from '../../tests/e2e/support/app-instance'
import { printTable, writeResult } from '../lib/index'
import { seedChanges } from './seed-changes'

const argument = process.argv.indexOf('--messages')
const total = argument > 0 ? Number(process.argv[argument + 1]) : 10_000

const app = await startApp({ NUXT_SYNC: 'on' })
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || undefined, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
try {
  const changes = seedChanges(total)
  const uploadStarted = performance.now()
  for (let offset = 0; offset < changes.length; offset += 500) {
    const response = await app.fetchWithSession('/api/sync/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ changes: changes.slice(offset, offset + 500) }) })
    if (!response.ok) throw new Error(`push refused: ${response.status} ${await response.text()}`)
  }
  const uploadMs = performance.now() - uploadStarted
  // The server's half alone: every page read over HTTP, nothing written anywhere.
  const pullStarted = performance.now()
  for (let cursor = 0; ;) {
    const page = await (await app.fetchWithSession(`/api/sync/pull?cursor=${cursor}`)).json() as { cursor: number, more: boolean }
    cursor = page.cursor
    if (!page.more) break
  }
  const serverPullMs = performance.now() - pullStarted

  const [name, value] = app.cookie.split('=') as [string, string]
  const context = await browser.newContext({ storageState: { cookies: [{ name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] } })
  const page = await context.newPage()
  const started = performance.now()
  await page.goto(app.url)
  const status = page.getByTestId('sync-status')
  await status.waitFor({ timeout: 60_000 })
  const shownMs = performance.now() - started
  await page.locator('[data-testid="sync-status"][data-state="synced"]').waitFor({ timeout: 300_000 })
  const syncedMs = performance.now() - started
  const stored = await page.evaluate(() => new Promise<number>((resolve, reject) => {
    const open = indexedDB.open('plugboard')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const count = open.result.transaction('messages').objectStore('messages').count()
      count.onsuccess = () => resolve(count.result)
    }
  }))
  if (stored !== total) throw new Error(`The device holds ${stored} messages; expected ${total}.`)
  const rows = [{ messages: total, 'upload (s)': (uploadMs / 1000).toFixed(2), 'server pull alone (s)': (serverPullMs / 1000).toFixed(2), 'status shown (s)': (shownMs / 1000).toFixed(2), 'initial sync (s)': (syncedMs / 1000).toFixed(2), 'pull + apply (s)': ((syncedMs - shownMs) / 1000).toFixed(2) }]
  printTable('Initial sync of a new device (built app, Chromium)', rows)
  console.info(`written to ${await writeResult('sync-initial-sync', rows[0])}`)
}
finally {
  await browser.close()
  await app.stop()
}
