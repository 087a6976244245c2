// The latency of one change across two instances of the built app on one Postgres and one redis-server: a device's
// event stream is held by instance B, a change is pushed through instance A, and we time (from the push's start)
// the notice on B's stream and the change pulled from B, as a device sees it. One change at a time, many samples.
// Needs `npx nuxt build`, redis-server and Debian's postgresql.
// Run: node --import tsx bench/sync/cross-instance.ts [--samples 40]
import { createHlcClock } from '../../shared/sync/hlc'
import { startApp } from '../../tests/e2e/support/app-instance'
import type { AppInstance } from '../../tests/e2e/support/app-instance'
import { postgresMissing, startPostgresServer } from '../../tests/unit/helpers/postgres-server'
import { startRedisServer } from '../../tests/unit/helpers/redis-server'
import { ensureRedisServerBinary, median, printTable, writeResult } from '../lib/index'

const argument = process.argv.indexOf('--samples')
const samples = argument > 0 ? Number(process.argv[argument + 1]) : 40
const TARGET_MS = 1000

const redisBinary = ensureRedisServerBinary()
const postgresNotice = postgresMissing()
if (!redisBinary.ok || postgresNotice) {
  console.warn(`Skipping the cross-instance sync bench: ${redisBinary.ok ? postgresNotice : redisBinary.notice}`)
  process.exit(0)
}

/** Reads B's event stream, handing each `{cursor}` to whoever waits for one at least as large. */
async function openStream(app: AppInstance, cookie: string) {
  const response = await fetch(`${app.url}/api/sync/events`, { headers: { cookie, accept: 'text/event-stream' } })
  if (response.status !== 200) throw new Error(`The event stream answered ${response.status}.`)
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let latest = 0
  let waiting: { cursor: number, resolve: (at: number) => void } | undefined
  let text = ''
  let ready = () => {}
  const live = new Promise<void>((resolve) => {
    ready = resolve
  })
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
      if (done) return
      text += decoder.decode(value, { stream: true })
      let end: number
      while ((end = text.indexOf('\n\n')) >= 0) {
        const line = text.slice(0, end)
        text = text.slice(end + 2)
        const data = /^data: (.*)$/m.exec(line)?.[1]
        if (!data) continue
        const message = JSON.parse(data) as { ready?: boolean, cursor?: number }
        if (message.ready) ready()
        if (typeof message.cursor === 'number') latest = Math.max(latest, message.cursor)
        if (waiting && latest >= waiting.cursor) {
          waiting.resolve(performance.now())
          waiting = undefined
        }
      }
    }
  })()
  await live
  return {
    /** Resolves with the time the stream said the records reached `cursor`. */
    heard: (cursor: number) => new Promise<number>((resolve) => {
      if (latest >= cursor) resolve(performance.now())
      else waiting = { cursor, resolve }
    }),
    close: () => reader.cancel(),
  }
}

const percentile = (values: number[], share: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.ceil(share * values.length) - 1)]!

const [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()])
const env = { NUXT_SYNC: 'on', NUXT_DATABASE_URL: postgres.url, NUXT_REDIS_URL: redis.url, NUXT_SESSION_PASSWORD: 'cross-instance-bench-session-password-0123456789' }
const apps: AppInstance[] = []
try {
  apps.push(...await Promise.all([startApp(env), startApp(env)]))
  const [a, b] = apps as [AppInstance, AppInstance]
  const cookie = a.cookie
  const stream = await openStream(b, cookie)
  const clock = createHlcClock('bench')
  const heardMs: number[] = []
  const pulledMs: number[] = []
  let cursor = 0
  // A few untimed changes first: connection pools, the first query plans.
  for (let sample = -3; sample < samples; sample++) {
    const id = `thread-${sample + 3}`
    const change = { kind: 'thread', id, hlc: clock.now(), deleted: false, body: { id, title: `Change ${sample}`, createdAt: 0, updatedAt: Date.now() } }
    const started = performance.now()
    const response = await fetch(`${a.url}/api/sync/push`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ changes: [change] }) })
    if (!response.ok) throw new Error(`push refused: ${response.status} ${await response.text()}`)
    const pushed = await response.json() as { cursor: number }
    const heardAt = await stream.heard(pushed.cursor)
    const page = await (await fetch(`${b.url}/api/sync/pull?cursor=${cursor}`, { headers: { cookie } })).json() as { cursor: number, changes: Array<{ id: string }> }
    const pulledAt = performance.now()
    if (!page.changes.some(item => item.id === id)) throw new Error(`instance B did not return ${id}`)
    cursor = page.cursor
    if (sample < 0) continue
    heardMs.push(heardAt - started)
    pulledMs.push(pulledAt - started)
  }
  await stream.close()
  const row = (name: string, values: number[]) => ({ measure: name, 'p50 (ms)': percentile(values, 0.5).toFixed(1), 'p95 (ms)': percentile(values, 0.95).toFixed(1), 'max (ms)': Math.max(...values).toFixed(1), target: `< ${TARGET_MS} ms` })
  const rows = [row('push on A → notice on B\'s stream', heardMs), row('push on A → change pulled from B', pulledMs)]
  printTable(`One change across two instances (Postgres + Redis), ${samples} samples`, rows)
  console.info(`written to ${await writeResult('sync-cross-instance', { samples, 'notice p50 ms': percentile(heardMs, 0.5), 'notice p95 ms': percentile(heardMs, 0.95), 'pulled p50 ms': percentile(pulledMs, 0.5), 'pulled p95 ms': percentile(pulledMs, 0.95), 'pulled median ms': median(pulledMs) })}`)
}
finally {
  for (const app of apps) await app.stop()
  await Promise.all([redis.stop(), postgres.stop()])
}
