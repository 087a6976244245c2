import { expect, test } from '@playwright/test'
import type { LoopEvent } from '../../shared/loop/loop-event'
import { FAKE_URL } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startRedisServer } from '../unit/helpers/redis-server'
import type { RedisServer } from '../unit/helpers/redis-server'

// Two built-app instances on one redis-server: a background chat started on A is read from B, A is SIGKILLed
// mid-reply, and B's worker takes the job over (BullMQ's stalled-job check, shortened here) from the last finished
// step: the calculate call of step 1 is not run again, and the stream's ids go on without a gap or a repeat.
let redis: RedisServer
const apps: AppInstance[] = []

function env(redisUrl: string): Record<string, string> {
  return {
    NUXT_REDIS_URL: redisUrl,
    NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
    NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`,
    NUXT_SESSION_PASSWORD: 'takeover-test-session-password-0123456789',
    // Short enough for a quick takeover, long enough that an instance busy loading mathjs on a loaded machine keeps
    // its claim (a lapsed claim runs the job twice).
    NUXT_JOB_LOCK_DURATION_MS: '5000',
    NUXT_JOB_STALLED_INTERVAL_MS: '1000',
  }
}

interface Received { id: number, event: LoopEvent }

/** Reads the job's SSE stream from `app` until the run's end (or `signal`), calling `onEvent` for each one. */
async function readStream(app: AppInstance, cookie: string, jobId: string, onEvent: (item: Received) => void): Promise<void> {
  const response = await fetch(`${app.url}/api/chats/${jobId}/events`, { headers: { cookie, accept: 'text/event-stream' } })
  expect(response.status).toBe(200)
  const decoder = new TextDecoder()
  let buffer = ''
  const reader = response.body!.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const id = /^id: ?(\d+)$/m.exec(block)?.[1]
      const data = block.split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trimStart()).join('\n')
      if (!id || !data) continue
      const event = JSON.parse(data) as LoopEvent
      onEvent({ id: Number(id), event })
      if (event.type === 'finish' || event.type === 'fail') {
        await reader.cancel()
        return
      }
    }
  }
}

/** Waits until the job has appended its first event (its runner has started), reading the stream from `app`. */
async function firstEvent(app: AppInstance, jobId: string): Promise<void> {
  const response = await app.fetchWithSession(`/api/chats/${jobId}/events`, { headers: { accept: 'text/event-stream' } })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!/^id: ?\d+$/m.test(text)) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  await reader.cancel()
}

test.beforeAll(async () => {
  redis = await startRedisServer()
})

test.afterAll(async () => {
  for (const app of apps) await app.stop()
  await redis?.stop()
})

test('a chat started on A is read from B and finishes through B when A is killed mid-job', async () => {
  test.setTimeout(60_000)
  await fetch(`${FAKE_URL}/__requests`, { method: 'DELETE' })
  const a = await startApp(env(redis.url))
  apps.push(a)
  const started = await a.fetchWithSession('/api/chats', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ threadId: 'takeover-thread', model: 'fake/slow-tools', messages: [{ role: 'user', content: 'What is 6*7?' }], serverTools: ['calculate'] }),
  })
  expect(started.status).toBe(201)
  const { id } = await started.json() as { id: string }
  // A's worker must own the job before B (and its worker) exists, or B might simply run it from the start.
  await firstEvent(a, id)

  const b = await startApp(env(redis.url))
  apps.push(b)
  const received: Received[] = []
  let killed = false
  await readStream(b, a.cookie, id, (item) => {
    received.push(item)
    // A is answering step 2 (the slow reply), after the calculate call finished: kill it there.
    if (!killed && item.event.type === 'text-delta' && item.event.step === 2) {
      killed = true
      process.kill(a.pid, 'SIGKILL')
      apps.splice(apps.indexOf(a), 1)
    }
  })
  expect(killed).toBe(true)

  const ids = received.map(item => item.id)
  expect(ids).toEqual(ids.map((_, index) => index + 1))
  const end = received.at(-1)!.event
  expect(end).toMatchObject({ type: 'finish', finishReason: 'stop' })
  const done = received.filter(item => item.event.type === 'tool-call-done')
  expect(done).toHaveLength(1)
  expect(received.filter(item => item.event.type === 'tool-call-running')).toHaveLength(1)
  // Step 2 started twice (A's cut run, then B's), and step 1 once: the takeover went on from step 2.
  const trace = received.map(item => `${item.id}:${item.event.type}:${'step' in item.event ? item.event.step : ''}`).join(' ')
  expect(received.filter(item => item.event.type === 'step-start').map(item => (item.event as { step: number }).step), trace).toEqual([1, 2, 2])
  const record = await (await b.fetchWithSession(`/api/chats/${id}`, { headers: { cookie: a.cookie } })).json() as { status: string }
  expect(record.status).toBe('done')
})
