import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Redis } from 'ioredis'
import { createStorage } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { createRedisJobStore } from '~~/server/utils/background-jobs/store/redis-job-store'
import { closeMemoryKeyJobs, interruptIfOrphaned, MEMORY_KEY_INTERRUPTION, startMemoryKeyChatJob } from '~~/server/utils/background-jobs/store/memory-key-jobs'
import { createChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { startRedisServer } from './helpers/redis-server'
import type { RedisServer } from './helpers/redis-server'

// "Keep running when I close the tab" with the user's own key: the job calls the provider with that key, and the
// key is nowhere but in the running job's memory: not in the job store (disk or Redis), not in an event.
const USER_KEY = 'sk-or-v1-user-own-key-7f3a9c1e5b'

let fake: ChildProcess
let fakeBase = ''
let redis: RedisServer
let client: Redis
const dirs: string[] = []

beforeAll(async () => {
  fake = spawn(process.execPath, [resolve(process.cwd(), 'tests/fixtures/fake-openrouter/server.mjs')], { env: { ...process.env, PORT: '0', FAKE_OPENROUTER_DELAY_MS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  fakeBase = await new Promise<string>((done, reject) => {
    let output = ''
    fake.stdout!.on('data', (data: Buffer) => {
      output += data.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) done(match[1]!)
    })
    fake.once('exit', code => reject(new Error(`fake-openrouter exited with ${code}`)))
  })
  redis = await startRedisServer()
  client = new Redis(redis.url)
})

afterAll(async () => {
  await closeMemoryKeyJobs()
  client?.disconnect()
  await redis?.stop()
  fake?.kill()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const spec = (threadId: string, modelName = 'fake/text') => ({ sessionId: 's1', threadId, messages: [{ role: 'user' as const, content: 'Name two pets.' }], modelName, serverToolNames: [] })
const modelOptions = () => ({ apiKey: USER_KEY, baseUrl: `${fakeBase}/api/v1`, model: 'fake/text', appTitle: 'Plugboard' })

async function ended(store: JobStore, jobId: string): Promise<LoopEvent[]> {
  await vi.waitUntil(async () => ['done', 'failed', 'stopped', 'interrupted'].includes((await store.getJob(jobId))?.status ?? ''), { timeout: 10_000, interval: 10 })
  return (await store.readEvents<LoopEvent>(jobId, 0)).map(item => item.event)
}

async function receivedAuthorizations(): Promise<string[]> {
  const requests = await (await fetch(`${fakeBase}/__requests`)).json() as { headers: Record<string, string> }[]
  return requests.map(request => request.headers.authorization ?? '')
}

/** Every key and value in Redis, whatever its type, as one text. */
async function dumpRedis(): Promise<string> {
  const parts: string[] = []
  for (const key of await client.keys('*')) {
    const type = await client.type(key)
    parts.push(key)
    if (type === 'string') parts.push(String(await client.get(key)))
    if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)))
    if (type === 'stream') parts.push(JSON.stringify(await client.xrange(key, '-', '+')))
    if (type === 'zset') parts.push(JSON.stringify(await client.zrange(key, 0, -1)))
    if (type === 'list') parts.push(JSON.stringify(await client.lrange(key, 0, -1)))
    if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)))
  }
  return parts.join('\n')
}

function dumpFiles(dir: string): string {
  return readdirSync(dir, { recursive: true }).map(String).map(name => join(dir, name)).filter(path => statSync(path).isFile()).map(path => readFileSync(path, 'utf8')).join('\n')
}

describe('a reply on the user\'s own key', () => {
  it('calls the provider with the user\'s key, and the key is in neither Redis nor any event', async () => {
    await fetch(`${fakeBase}/__requests`, { method: 'DELETE' })
    const store = createRedisJobStore({ redis: client, keyPrefix: 'own-key:' })
    const job = await startMemoryKeyChatJob(store, spec('t-redis'), modelOptions())
    const events = await ended(store, job.id)
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' })
    expect(events.filter(event => event.type === 'text-delta').map(event => (event as { text: string }).text).join('')).toContain('Pebbles')
    expect(await receivedAuthorizations()).toEqual([`Bearer ${USER_KEY}`])
    expect(await store.getJob(job.id)).toMatchObject({ status: 'done', keyInMemory: true })
    const everything = await dumpRedis()
    expect(everything).toContain(job.id)
    expect(everything).not.toContain(USER_KEY)
    expect(everything).not.toContain('7f3a9c1e5b')
  })

  it('keeps the key off the embedded store\'s disk too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugboard-own-key-'))
    dirs.push(dir)
    const store = createMemoryJobStore({ storage: createStorage({ driver: fsDriver({ base: dir }) }) })
    const job = await startMemoryKeyChatJob(store, spec('t-disk'), modelOptions())
    await ended(store, job.id)
    // The record reaches the disk just after the store answers with it: wait for the finished one there.
    await vi.waitUntil(() => dumpFiles(dir).includes('"done"'), { timeout: 5000, interval: 10 })
    const written = dumpFiles(dir)
    expect(written).toContain(job.id)
    expect(written).not.toContain(USER_KEY)
  })

  it('is interrupted with a clear message when the instance holding the key went quiet, not taken over', async () => {
    const store = createRedisJobStore({ redis: client, keyPrefix: 'own-key-orphan:' })
    const created = await createChatJob(store, spec('t-orphan'))
    // Another instance started it and died: its heartbeat stopped a while ago.
    const job = (await store.updateJob(created.id, { status: 'running', keyInMemory: true, ownerId: 'instance-a', heartbeatAt: Date.now() - 60_000 }))!
    expect((await interruptIfOrphaned(store, job, 90_000)).status).toBe('running')
    const after = await interruptIfOrphaned(store, job, 30_000)
    expect(after).toMatchObject({ status: 'interrupted', error: MEMORY_KEY_INTERRUPTION })
    const events = (await store.readEvents<LoopEvent>(job.id, 0)).map(item => item.event)
    expect(events).toEqual([{ type: 'fail', steps: 0, error: { kind: 'server', message: `${MEMORY_KEY_INTERRUPTION} Press Retry.`, code: 'server.job.keyLost', params: {}, retryable: true } }])
    // A job on the server's key is another instance's to take over: left alone.
    const serverKey = (await store.updateJob((await createChatJob(store, spec('t-server'))).id, { status: 'running', heartbeatAt: 0 }))!
    expect((await interruptIfOrphaned(store, serverKey, 1)).status).toBe('running')
  })

  it('ends interrupted, its partial reply kept, when this instance shuts down mid-reply', async () => {
    const store = createMemoryJobStore()
    const job = await startMemoryKeyChatJob(store, spec('t-shutdown', 'fake/slow-tools'), { ...modelOptions(), model: 'fake/slow-tools' })
    await vi.waitUntil(async () => (await store.readEvents<LoopEvent>(job.id, 0)).some(item => item.event.type === 'text-delta'), { timeout: 10_000, interval: 10 })
    await closeMemoryKeyJobs()
    const events = await ended(store, job.id)
    expect(await store.getJob(job.id)).toMatchObject({ status: 'interrupted', error: MEMORY_KEY_INTERRUPTION })
    expect(events.at(-1)).toMatchObject({ type: 'fail', error: { message: expect.stringContaining('only the server instance that started it') } })
    expect(events.some(event => event.type === 'text-delta')).toBe(true)
  })
})
