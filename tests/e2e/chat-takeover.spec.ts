import { expect, test } from '@playwright/test'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { firstJobEvent, readJobStream, redisInstanceEnv } from './support/redis-instances'
import type { ReceivedEvent } from './support/redis-instances'
import { startRedisServer } from '../unit/helpers/redis-server'
import type { RedisServer } from '../unit/helpers/redis-server'

// Two built-app instances on one redis-server: a background chat started on A is read from B, A is SIGKILLed
// mid-reply, and B's worker takes the job over (BullMQ's stalled-job check, shortened here) from the last finished
// step: the calculate call of step 1 is not run again, and the stream's ids go on without a gap or a repeat.
let redis: RedisServer
const apps: AppInstance[] = []

test.beforeAll(async () => {
  redis = await startRedisServer()
})

test.afterAll(async () => {
  for (const app of apps) await app.stop()
  await redis?.stop()
})

test('a chat started on A is read from B and finishes through B when A is killed mid-job', async () => {
  test.setTimeout(60_000)
  const a = await startApp(redisInstanceEnv(redis.url))
  apps.push(a)
  const started = await a.fetchWithSession('/api/chats', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ threadId: 'takeover-thread', model: 'fake/slow-tools', messages: [{ role: 'user', content: 'What is 6*7?' }], serverTools: ['calculate'] }),
  })
  expect(started.status).toBe(201)
  const { id } = await started.json() as { id: string }
  // A's worker must own the job before B (and its worker) exists, or B might simply run it from the start.
  await firstJobEvent(a, id)

  const b = await startApp(redisInstanceEnv(redis.url))
  apps.push(b)
  const received: ReceivedEvent[] = []
  let killed = false
  await readJobStream(b, a.cookie, id, (item) => {
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
