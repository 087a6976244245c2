// Initial sync of a large account on a new device: 10,000 messages (100 chats of 100) already on the server, then a
// fresh Chromium profile with the owner's session opens the built app; measured from the page's start to the sync
// status saying Synced (every page pulled over HTTP and written to IndexedDB, active paths marked).
// With `--before <dir>` (a build of an earlier revision: its `.output` folder) both builds are measured side by side,
// rounds interleaved and the order swapped each round, and the ratio is reported.
// Needs `npx nuxt build` first. Run: CHROMIUM_PATH=/usr/bin/chromium node --import tsx bench/sync/initial-sync.ts [--messages 10000] [--rounds 1] [--before /path/to/.output]
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import type { Browser } from '@playwright/test'
import { startApp } from '../../tests/e2e/support/app-instance'
import { median, printTable, writeResult } from '../lib/index'
import { seedChanges } from './seed-changes'

const option = (name: string, fallback?: string) => {
  const index = process.argv.indexOf(`--${name}`)
  return index > 0 ? process.argv[index + 1] : fallback
}
const total = Number(option('messages', '10000'))
const rounds = Number(option('rounds', '1'))
const before = option('before')
const servers: Record<string, string> = { ...(before ? { before: join(before, 'server/index.mjs') } : {}), after: '.output/server/index.mjs' }

interface Timing { uploadMs: number, serverPullMs: number, shownMs: number, syncedMs: number }

async function measureOnce(browser: Browser, server: string): Promise<Timing> {
  const app = await startApp({ NUXT_SYNC: 'on' }, { server })
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
    try {
      const page = await context.newPage()
      const started = performance.now()
      await page.goto(app.url)
      await page.getByTestId('sync-status').waitFor({ timeout: 60_000 })
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
      return { uploadMs, serverPullMs, shownMs, syncedMs }
    }
    finally {
      await context.close()
    }
  }
  finally {
    await app.stop()
  }
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || undefined, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
try {
  const timings: Record<string, Timing[]> = Object.fromEntries(Object.keys(servers).map(name => [name, []]))
  const loads: number[] = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? Object.keys(servers) : Object.keys(servers).reverse()
    for (const name of order) {
      loads.push(loadavg()[0]!)
      timings[name]!.push(await measureOnce(browser, servers[name]!))
    }
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(2)
  const rows = Object.entries(timings).map(([name, runs]) => ({
    build: name === 'after' ? 'this tree' : before!,
    messages: total,
    'upload (s)': seconds(median(runs.map(run => run.uploadMs))),
    'server pull alone (s)': seconds(median(runs.map(run => run.serverPullMs))),
    'status shown (s)': seconds(median(runs.map(run => run.shownMs))),
    'initial sync (s)': seconds(median(runs.map(run => run.syncedMs))),
    'pull + apply (s)': seconds(median(runs.map(run => run.syncedMs - run.shownMs))),
    'runs (s)': runs.map(run => seconds(run.syncedMs)).join(' '),
  }))
  printTable(`Initial sync of a new device (built app, Chromium), ${rounds} round(s), load average ${loads.map(load => load.toFixed(1)).join(' ')}`, rows)
  const result: Record<string, unknown> = { messages: total, rounds, 'load averages': loads, rows }
  if (before) {
    const ratios = timings.before!.map((run, index) => run.syncedMs / timings.after![index]!.syncedMs)
    console.info(`before / after (initial sync): ${median(ratios).toFixed(2)}× (rounds: ${ratios.map(ratio => ratio.toFixed(2)).join(', ')})`)
    result['before / after'] = median(ratios)
  }
  console.info(`written to ${await writeResult('sync-initial-sync', result)}`)
}
finally {
  await browser.close()
}
