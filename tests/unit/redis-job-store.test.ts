import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeJobStore, createJobStore } from '~~/server/utils/background-jobs/store/create-job-store'
import { createRedisJobStore } from '~~/server/utils/background-jobs/store/redis-job-store'
import { closeRedisClients } from '~~/server/utils/redis/redis-client'
import type { JobEvent } from '~~/server/utils/background-jobs/store/job-store-types'
import { describeJobStoreContract, newJob } from './helpers/job-store-contract'
import { startRedisServer } from './helpers/redis-server'
import type { RedisServer } from './helpers/redis-server'

let server: RedisServer
// Two connections: what two app instances behind one Redis would hold.
let instanceA: Redis
let instanceB: Redis
let run = 0

beforeAll(async () => {
  server = await startRedisServer()
  instanceA = new Redis(server.url)
  instanceB = new Redis(server.url)
})

afterAll(async () => {
  await Promise.all([instanceA?.quit(), instanceB?.quit()])
  await closeRedisClients()
  await closeJobStore()
  await server?.stop()
})

describeJobStoreContract('Redis store, two instances', {
  fakeTime: false,
  async open(retention) {
    // A fresh key prefix per test, so no test sees another's jobs.
    const keyPrefix = `test-${++run}:`
    return {
      a: createRedisJobStore({ ...retention, redis: instanceA, keyPrefix }),
      b: createRedisJobStore({ ...retention, redis: instanceB, keyPrefix }),
    }
  },
})

describe('Redis store', () => {
  it('stores a job\'s events in a Redis stream with entry ids <n>-0, expiring with the job', async () => {
    const store = createRedisJobStore({ redis: instanceA, keyPrefix: 'layout:' })
    const job = newJob()
    await store.putJob(job)
    await store.appendEvent(job.id, { type: 'text-delta', text: 'hi' })
    const entries = await instanceB.xrange(`layout:job:{${job.id}}:events`, '-', '+')
    expect(entries.map(([id]) => id)).toEqual(['1-0'])
    // Running: both keys live as long as an idle job may (24 h), the record's and the stream's alike.
    const [recordTtl, eventsTtl] = await Promise.all([instanceB.pttl(`layout:job:{${job.id}}`), instanceB.pttl(`layout:job:{${job.id}}:events`)])
    expect(recordTtl).toBeGreaterThan(60 * 60 * 1000)
    expect(eventsTtl).toBeGreaterThan(60 * 60 * 1000)
    await store.updateJob(job.id, { status: 'failed', error: 'provider said no' })
    expect(await instanceB.pttl(`layout:job:{${job.id}}:events`)).toBeLessThanOrEqual(60 * 60 * 1000)
    await store.close()
  })

  it('follows every subscribed stream of an instance over one connection, and closing the store ends it', async () => {
    const store = createRedisJobStore({ redis: instanceA, keyPrefix: 'closing:' })
    const job = newJob()
    const other = newJob()
    const clientsBefore = await connectedClients()
    await store.subscribe(job.id, 0, () => {}, new AbortController().signal)
    await store.subscribe(job.id, 0, () => {}, new AbortController().signal)
    await store.subscribe(other.id, 0, () => {}, new AbortController().signal)
    await expect.poll(connectedClients).toBe(clientsBefore + 1)
    await store.close()
    await expect.poll(connectedClients).toBe(clientsBefore)
  })
})

describe('one pub/sub connection per instance', () => {
  it('delivers the streams subscribed after others, and keeps 200 followers apart', async () => {
    const writer = createRedisJobStore({ redis: instanceA, keyPrefix: 'many:' })
    const reader = createRedisJobStore({ redis: instanceB, keyPrefix: 'many:' })
    const controller = new AbortController()
    // The read blocks on a stream nobody writes to...
    const idle = newJob()
    await reader.subscribe(idle.id, 0, () => {}, controller.signal)
    // ...then 200 more are followed, one after the other, and each gets its own events, in order, once.
    const jobs = Array.from({ length: 200 }, () => newJob())
    const seen = new Map<string, number[]>()
    for (const job of jobs) await reader.subscribe<{ n: number }>(job.id, 0, item => seen.set(job.id, [...(seen.get(job.id) ?? []), item.event.n]), controller.signal)
    await Promise.all(jobs.map(async (job, index) => {
      for (let n = 1; n <= 3; n++) await writer.appendEvent(job.id, { n: index * 10 + n })
    }))
    await expect.poll(() => [...seen.values()].reduce((sum, list) => sum + list.length, 0)).toBe(600)
    jobs.forEach((job, index) => expect(seen.get(job.id)).toEqual([index * 10 + 1, index * 10 + 2, index * 10 + 3]))
    controller.abort()
    await reader.close()
    await writer.close()
  })
})

describe('live events over pub/sub, the stream as the record', () => {
  it('reads from the stream an entry whose publication it never got, before the next one', async () => {
    const store = createRedisJobStore({ redis: instanceA, keyPrefix: 'gap:' })
    const job = newJob()
    await store.putJob(job)
    const seen: JobEvent<string>[] = []
    const controller = new AbortController()
    await createRedisJobStore({ redis: instanceB, keyPrefix: 'gap:' }).subscribe<string>(job.id, 0, event => seen.push(event), controller.signal)
    // Entry 1 lands in the stream without a publication (as if the message was lost on the way)...
    await instanceA.xadd(`gap:job:{${job.id}}:events`, '1-0', 'event', JSON.stringify('unpublished'))
    // ...and entry 2 arrives live: the gap is read from the stream first.
    expect(await store.appendEvent(job.id, 'published')).toBe(2)
    await expect.poll(() => seen.map(event => [event.id, event.event])).toEqual([[1, 'unpublished'], [2, 'published']])
    controller.abort()
    await store.close()
  })

  it('catches up on what was appended while its pub/sub connection was cut, the last event included', async () => {
    const writer = createRedisJobStore({ redis: instanceA, keyPrefix: 'cut:' })
    const reader = createRedisJobStore({ redis: instanceB, keyPrefix: 'cut:' })
    const job = newJob()
    await writer.putJob(job)
    const seen: number[] = []
    const controller = new AbortController()
    await reader.subscribe<{ n: number }>(job.id, 0, event => seen.push(event.event.n), controller.signal)
    await writer.appendEvent(job.id, { n: 1 })
    await expect.poll(() => seen).toEqual([1])
    // Redis drops every pub/sub connection; the appends meanwhile are published to nobody.
    await instanceA.client('KILL', 'TYPE', 'pubsub')
    for (let n = 2; n <= 5; n++) await writer.appendEvent(job.id, { n })
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([1, 2, 3, 4, 5])
    await writer.appendEvent(job.id, { n: 6 })
    await expect.poll(() => seen).toEqual([1, 2, 3, 4, 5, 6])
    controller.abort()
    await reader.close()
    await writer.close()
  })
})

describe('createJobStore', () => {
  it('with a Redis URL, gives stores that share jobs through Redis (as two instances would)', async () => {
    const first = createJobStore({ redisUrl: server.url })
    const second = createRedisJobStore({ redis: instanceB })
    const job = newJob()
    await first.putJob(job)
    expect(await second.getJob(job.id)).toEqual(job)
    await first.close()
    await second.close()
  })

  it('without one, gives embedded stores that share nothing', async () => {
    const first = createJobStore({ dataDir: false })
    const second = createJobStore({ dataDir: false })
    const job = newJob()
    await first.putJob(job)
    expect(await first.getJob(job.id)).toEqual(job)
    expect(await second.getJob(job.id)).toBeUndefined()
    await first.close()
    await second.close()
  })
})

async function connectedClients(): Promise<number> {
  const info = await instanceA.info('clients')
  return Number(/connected_clients:(\d+)/.exec(info)?.[1])
}
