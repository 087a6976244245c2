import type { H3Event } from 'h3'
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimiterAbstract } from 'rate-limiter-flexible'
import { getRedisClient } from '../redis/redis-client'
import { requestClientBudgetKey } from './client-address'
import { serverText } from '#shared/errors/server-messages'

/** Default model requests per minute, per session and per IP (`NUXT_RATE_LIMIT_PER_MINUTE`). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 30

/**
 * The kinds of requests counted apart, each with its own budget. 'events': opening a background chat's event stream
 * (`GET /api/chats/:id/events`); 'chat-answer': a tab's answers to a running chat (approvals, MCP questions, browser tool results,
 * stop).
 */
export type RateLimitBucket = 'model' | 'demo' | 'sign-in' | 'tool' | 'events' | 'chat-answer'

/** How many of each bucket a minute allows, given the configured model limit. */
function pointsFor(bucket: RateLimitBucket, perMinute: number): number {
  // The demo model spends no money, only a little CPU: a generous budget that still stops a flood.
  if (bucket === 'demo') return perMinute * 20
  // Password guessing: a handful a minute is plenty for a person who mistyped.
  if (bucket === 'sign-in') return 10
  // One model reply may call several tools at once.
  if (bucket === 'tool') return perMinute * 4
  // A tab reconnects a dropped stream every 3 s at the quickest (20 a minute), per chat it follows, and opens one
  // per chat it shows: several running chats in a few tabs stay far below; a reconnect flood does not. Never below
  // 120, however low the model limit: reading a reply costs no model call.
  if (bucket === 'events') return Math.max(120, perMinute * 4)
  // One answer per tool call (its approval, then a browser tool's result): a reply may make dozens of calls.
  if (bucket === 'chat-answer') return Math.max(240, perMinute * 8)
  return perMinute
}

const limiters = new Map<string, RateLimiterAbstract>()

/**
 * A limiter of `points` a minute for `bucket`: counted in Redis when given a client, so every instance behind it
 * shares one budget. While Redis is unreachable it does not wait: it counts in this instance's memory instead (the
 * insurance limiter), so an outage neither blocks requests nor lifts the limit.
 */
export function createRateLimiter(bucket: RateLimitBucket, points: number, redis?: Redis): RateLimiterAbstract {
  const inMemory = new RateLimiterMemory({ keyPrefix: bucket, points, duration: 60 })
  if (!redis) return inMemory
  return new RateLimiterRedis({ storeClient: redis, keyPrefix: `plugboard:rate:${bucket}`, points, duration: 60, rejectIfRedisNotReady: true, insuranceLimiter: inMemory })
}

function limiterFor(bucket: RateLimitBucket, perMinute: number, redisUrl: string): RateLimiterAbstract {
  const key = `${bucket}:${perMinute}`
  let limiter = limiters.get(key)
  if (!limiter) {
    limiter = createRateLimiter(bucket, pointsFor(bucket, perMinute), redisUrl ? getRedisClient(redisUrl) : undefined)
    limiters.set(key, limiter)
  }
  return limiter
}

/** The configured per-minute limit; nonsense falls back to the default, never to "unlimited". */
export function rateLimitPerMinute(configured: unknown): number {
  const value = Number(configured)
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_RATE_LIMIT_PER_MINUTE
}

/**
 * Counts one request of `bucket` against the session and against the client's IP, and throws 429 with
 * `Retry-After` (seconds) when either is spent. Behind a reverse proxy set `NUXT_TRUST_PROXY` so the
 * client's own IP is counted, not the proxy's (`requestClientBudgetKey`: the hop the trusted proxies saw).
 */
export async function consumeRateLimit(event: H3Event, bucket: RateLimitBucket, sessionId: string | undefined): Promise<void> {
  const config = useRuntimeConfig(event)
  const limiter = limiterFor(bucket, rateLimitPerMinute(config.rateLimitPerMinute), String(config.redisUrl ?? '').trim())
  const ip = requestClientBudgetKey(event)
  const keys = [`ip:${ip}`, ...(sessionId ? [`session:${sessionId}`] : [])]
  try {
    await Promise.all(keys.map(key => limiter.consume(key)))
  }
  catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection
    const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))
    setResponseHeader(event, 'retry-after', seconds)
    // the code and parameters let the app say it in the user's language (as server/utils/http/user-error.ts does)
    const text = serverText('server.rateLimited', { limit: pointsFor(bucket, rateLimitPerMinute(useRuntimeConfig(event).rateLimitPerMinute)), seconds })
    throw createError({ statusCode: 429, statusMessage: 'Too Many Requests', message: text.message, data: { code: text.code, params: text.params } })
  }
}
