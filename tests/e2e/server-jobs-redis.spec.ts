import { Redis } from 'ioredis'
import { expect, test } from './support/own-upstream'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { firstJobEvent, readJobStream, redisInstanceEnv } from './support/redis-instances'
import { startRedisServer } from '../unit/helpers/redis-server'
import type { RedisServer } from '../unit/helpers/redis-server'

// Two built-app instances on one redis-server. What only the instance running a job holds (its AbortController,
// the browser calls it waits for, a user's own key) must still answer to requests that land on the other one.
let redis: RedisServer
const apps: AppInstance[] = []
const USER_KEY = 'sk-or-v1-users-own-e2e-key-5d1c8e'

async function startChat(app: AppInstance, body: Record<string, unknown>): Promise<string> {
  const started = await app.fetchWithSession('/api/chats', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ threadId: 'redis-thread', messages: [{ role: 'user', content: 'What is 6*7?' }], ...body }) })
  expect(started.status).toBe(201)
  return ((await started.json()) as { id: string }).id
}

/** Every key and value in Redis, as one text. */
async function dumpRedis(url: string): Promise<string> {
  const client = new Redis(url)
  const parts: string[] = []
  try {
    for (const key of await client.keys('*')) {
      const type = await client.type(key)
      parts.push(key)
      if (type === 'string') parts.push(String(await client.get(key)))
      else if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)))
      else if (type === 'stream') parts.push(JSON.stringify(await client.xrange(key, '-', '+')))
      else if (type === 'zset') parts.push(JSON.stringify(await client.zrange(key, 0, -1)))
      else if (type === 'list') parts.push(JSON.stringify(await client.lrange(key, 0, -1)))
      else if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)))
    }
  }
  finally {
    client.disconnect()
  }
  return parts.join('\n')
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ upstream }) => {
  redis = await startRedisServer()
  // A first, then B: A's worker owns what A starts before B exists.
  const env = redisInstanceEnv(redis.url, { NUXT_OPENROUTER_BASE_URL: `${upstream.url}/api/v1` })
  apps.push(await startApp(env))
  apps.push(await startApp(env))
})

test.afterAll(async () => {
  for (const app of apps) await app.stop()
  await redis?.stop()
})

test('Stop sent to B stops the reply running on A', async () => {
  const [a, b] = apps as [AppInstance, AppInstance]
  // B is up too: make sure A's worker took the job (its first event) before stopping through B.
  const id = await startChat(a, { model: 'fake/slow-tools', serverTools: ['calculate'] })
  await firstJobEvent(a, id)
  const received = await readJobStream(b, a.cookie, id, async (item) => {
    if (item.event.type === 'text-delta' && item.event.step === 2) {
      const stop = await b.fetchWithSession(`/api/chats/${id}/stop`, { method: 'POST', headers: { cookie: a.cookie } })
      expect(stop.status).toBe(200)
    }
  })
  expect(received.at(-1)!.event).toMatchObject({ type: 'finish', finishReason: 'aborted' })
  const text = received.map(item => (item.event.type === 'text-delta' ? item.event.text : '')).join('')
  expect(text).not.toContain('The end.')
  const record = await (await b.fetchWithSession(`/api/chats/${id}`, { headers: { cookie: a.cookie } })).json() as { status: string }
  expect(record.status).toBe('stopped')
})

test('a browser tool answered through B reaches the job waiting on A; a second answer is refused', async () => {
  const [a, b] = apps as [AppInstance, AppInstance]
  const note = { type: 'function', function: { name: 'read_page_note', parameters: { type: 'object', properties: {} } } }
  const id = await startChat(a, { model: 'fake/browser-tool', browserTools: [note] })
  let answers: number[] = []
  const received = await readJobStream(b, a.cookie, id, async (item) => {
    if (item.event.type === 'tool-call-status') {
      const body = JSON.stringify({ callId: item.event.callId, content: 'Answered on B' })
      const post = () => b.fetchWithSession(`/api/chats/${id}/tool-results`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: a.cookie }, body })
      answers = [(await post()).status, (await post()).status]
    }
  })
  expect(answers).toEqual([200, 409])
  expect(received.find(item => item.event.type === 'tool-call-done')!.event).toMatchObject({ result: { content: 'Answered on B' } })
  expect(received.at(-1)!.event).toMatchObject({ type: 'finish', finishReason: 'stop' })
})

test('a reply on the user\'s own key uses that key, never reaches Redis, and is interrupted, not taken over, when A dies', async ({ upstream }) => {
  const [a, b] = apps as [AppInstance, AppInstance]
  await upstream.clear()
  const id = await startChat(a, { model: 'fake/slow-tools', serverTools: ['calculate'], apiKey: USER_KEY, messages: [{ role: 'user', content: 'On my own key: what is 6*7?' }] })
  let killed = false
  const received = await readJobStream(b, a.cookie, id, (item) => {
    if (!killed && item.event.type === 'text-delta' && item.event.step === 2) {
      killed = true
      process.kill(a.pid, 'SIGKILL')
    }
  })
  apps.splice(apps.indexOf(a), 1)
  expect(killed).toBe(true)
  // This chat's requests (other tests' jobs may still be winding down on the same fake).
  const ours = (await upstream.requests()).filter(request => JSON.stringify(request.body).includes('On my own key'))
  const authorizations = ours.map(request => request.headers.authorization)
  expect(authorizations.length).toBeGreaterThanOrEqual(2)
  expect(new Set(authorizations)).toEqual(new Set([`Bearer ${USER_KEY}`]))
  const end = received.at(-1)!.event
  expect(end).toMatchObject({ type: 'fail', error: { message: expect.stringContaining('ran on your own key') } })
  // Nobody ran step 2 again: only A's cut start of it.
  expect(received.filter(item => item.event.type === 'step-start').map(item => (item.event as { step: number }).step)).toEqual([1, 2])
  const record = await (await b.fetchWithSession(`/api/chats/${id}`, { headers: { cookie: a.cookie } })).json() as { status: string, keyInMemory: boolean }
  expect(record).toMatchObject({ status: 'interrupted', keyInMemory: true })
  const everything = await dumpRedis(redis.url)
  expect(everything).toContain(id)
  expect(everything).not.toContain(USER_KEY)
  // Nor in what either instance logged (A's output up to its death included).
  for (const app of [a, b]) expect(app.output()).not.toContain(USER_KEY)
  // What the browser reads back carries no key either.
  expect(JSON.stringify(received)).not.toContain(USER_KEY)
})
