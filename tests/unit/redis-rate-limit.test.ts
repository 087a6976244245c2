// Rate limits with NUXT_REDIS_URL: counted in Redis, so two instances behind one Redis share one budget, and
// counted in memory (not waited for) while Redis is unreachable.
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as h3 from 'h3'
import { Redis } from 'ioredis'
import { RateLimiterRes } from 'rate-limiter-flexible'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeRedisClients, getRedisClient } from '~~/server/utils/redis/redis-client'
import { consumeRateLimit, createRateLimiter } from '~~/server/utils/security/rate-limit'
import { startRedisServer } from './helpers/redis-server'
import type { RedisServer } from './helpers/redis-server'

let server: RedisServer
let instanceA: Redis
let instanceB: Redis

beforeAll(async () => {
  server = await startRedisServer()
  instanceA = new Redis(server.url)
  instanceB = new Redis(server.url)
  // Until a client is ready the limiter counts in memory (it never waits for Redis): start with both connected.
  await Promise.all([instanceA.ping(), instanceB.ping()])
})

afterAll(async () => {
  await Promise.all([instanceA?.quit(), instanceB?.quit()])
  await closeRedisClients()
  await server?.stop()
})

/** Whether `consume` was refused for being over the limit (any other rejection fails the test). */
async function refused(consume: Promise<unknown>): Promise<boolean> {
  try {
    await consume
    return false
  }
  catch (rejection) {
    if (rejection instanceof RateLimiterRes) return true
    throw rejection
  }
}

describe('rate limits on Redis', () => {
  it('count one budget across two instances', async () => {
    const onA = createRateLimiter('model', 3, instanceA)
    const onB = createRateLimiter('model', 3, instanceB)
    expect(await refused(onA.consume('session:shared'))).toBe(false)
    expect(await refused(onB.consume('session:shared'))).toBe(false)
    expect(await refused(onA.consume('session:shared'))).toBe(false)
    expect(await refused(onB.consume('session:shared'))).toBe(true)
    expect(await refused(onA.consume('session:shared'))).toBe(true)
    // Another key has its own budget.
    expect(await refused(onB.consume('session:other'))).toBe(false)
  })

  it('without Redis, each instance counts on its own', async () => {
    const onA = createRateLimiter('model', 1)
    const onB = createRateLimiter('model', 1)
    expect(await refused(onA.consume('session:alone'))).toBe(false)
    expect(await refused(onB.consume('session:alone'))).toBe(false)
    expect(await refused(onA.consume('session:alone'))).toBe(true)
  })

  it('while Redis is unreachable, answers at once and still limits, counting in memory', async () => {
    const unreachable = new Redis(`redis://127.0.0.1:${server.port}`, { lazyConnect: true })
    const limiter = createRateLimiter('sign-in', 2, unreachable)
    expect(unreachable.status).toBe('wait')
    expect(await refused(limiter.consume('ip:203.0.113.9'))).toBe(false)
    expect(await refused(limiter.consume('ip:203.0.113.9'))).toBe(false)
    expect(await refused(limiter.consume('ip:203.0.113.9'))).toBe(true)
    // Nothing reached Redis.
    expect(await instanceA.keys('plugboard:rate:sign-in:*')).toEqual([])
    unreachable.disconnect()
  })
})

describe('consumeRateLimit with NUXT_REDIS_URL set', () => {
  let app: Server
  let base = ''
  const runtimeConfig = { redisUrl: '', rateLimitPerMinute: 2, trustProxy: false }

  beforeAll(async () => {
    for (const name of ['createError', 'setResponseHeader', 'getRequestIP'] as const) {
      (globalThis as Record<string, unknown>)[name] = h3[name]
    }
    (globalThis as Record<string, unknown>).useRuntimeConfig = () => runtimeConfig
    runtimeConfig.redisUrl = server.url
    // As server/plugins/05.redis-client.ts does at start-up: connected before the first request.
    await getRedisClient(server.url).ping()
    const handler = h3.createApp().use('/', h3.defineEventHandler(async (event) => {
      await consumeRateLimit(event, 'model', 'session-42')
      return 'ok'
    }))
    app = createServer(h3.toNodeListener(handler))
    await new Promise<void>(done => app.listen(0, '127.0.0.1', done))
    base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    app?.closeAllConnections()
    await new Promise(done => app?.close(done))
  })

  it('counts the session and the IP in Redis and answers 429 past the limit', async () => {
    expect((await fetch(base)).status).toBe(200)
    expect((await fetch(base)).status).toBe(200)
    const refusedResponse = await fetch(base)
    expect(refusedResponse.status).toBe(429)
    expect(Number(refusedResponse.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await instanceB.keys('plugboard:rate:model:*')).toEqual(expect.arrayContaining(['plugboard:rate:model:ip:127.0.0.1', 'plugboard:rate:model:session:session-42']))
  })
})
