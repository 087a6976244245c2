import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeJobStore, createJobStore } from '~~/server/utils/background-jobs/create-job-store'
import { createRedisJobStore } from '~~/server/utils/background-jobs/redis-job-store'
import { closeRedisClients } from '~~/server/utils/redis/redis-client'
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

  it('closing the store ends its subscriptions and their connections', async () => {
    const store = createRedisJobStore({ redis: instanceA, keyPrefix: 'closing:' })
    const job = newJob()
    const clientsBefore = await connectedClients()
    await store.subscribe(job.id, 0, () => {}, new AbortController().signal)
    await store.subscribe(job.id, 0, () => {}, new AbortController().signal)
    await expect.poll(connectedClients).toBe(clientsBefore + 2)
    await store.close()
    await expect.poll(connectedClients).toBe(clientsBefore)
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
