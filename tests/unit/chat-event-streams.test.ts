// A background chat's routes probed as an attacker would, on h3 over real HTTP with the real guard
// (server/middleware/api-guard's guardApiRequest) and the real events route: a session that opens streams without
// end, floods of reconnects and answers, and a stream whose job record is deleted under it.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as h3 from 'h3'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { pipeJobEvents } from '~~/server/utils/background-jobs/events/job-event-stream'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { createRedisJobStore } from '~~/server/utils/background-jobs/store/redis-job-store'
import { newJob } from './helpers/job-store-contract'
import { startRedisServer } from './helpers/redis-server'
import { listenApp } from './helpers/listen-app'
import type { ListeningApp } from './helpers/listen-app'

const store = createMemoryJobStore()
vi.mock('~~/server/utils/background-jobs/store/chat-job-store', () => ({ chatJobStore: () => store }))
vi.mock('~~/server/utils/background-jobs/runner/chat-worker', () => ({ memoryKeyTimings: () => ({ heartbeatMs: 10_000, staleAfterMs: 30_000 }) }))

const runtimeConfig = { redisUrl: '', rateLimitPerMinute: 1000, trustProxy: false, accessPassword: '', maxBodyBytes: 0, maxEventStreamsPerSession: 32 }
let server: ListeningApp | undefined
let base = ''
let openEventStreams: (sessionId: string) => number

beforeAll(async () => {
  for (const name of ['defineEventHandler', 'createError', 'setResponseHeader', 'getRequestHeader', 'getRequestHost', 'getQuery', 'getRouterParam', 'parseCookies'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  (globalThis as Record<string, unknown>).useRuntimeConfig = () => runtimeConfig
  // nuxt-auth-utils' sealed session, read as the session id the cookie names
  ;(globalThis as Record<string, unknown>).getUserSession = (event: h3.H3Event) => ({ id: h3.parseCookies(event)['plugboard-session'], issuedAt: 1 })
  const { guardApiRequest } = await import('~~/server/utils/security/api-access')
  ;({ openEventStreams } = await import('~~/server/utils/background-jobs/events/event-stream-slots'))
  const app = h3.createApp({
    onError: (error, event) => {
      if (event.node.res.headersSent) return
      event.node.res.writeHead(error.statusCode, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: error.statusCode, message: error.message }))
    },
  })
  app.use(h3.defineEventHandler(event => guardApiRequest(event)))
  const router = h3.createRouter()
  router.get('/api/chats/:id/events', (await import('~~/server/api/chats/[id]/events.get')).default)
  // The answers' own handlers are not under test here, only what the guard lets reach them: "no such job" for all.
  for (const route of ['approvals', 'tool-results', 'stop']) router.post(`/api/chats/:id/${route}`, h3.defineEventHandler(() => h3.createError({ statusCode: 404, statusMessage: 'Not Found' })))
  app.use(router)
  server = await listenApp(app)
  base = server.base
  // Importing the route modules takes seconds of transform on a loaded machine.
}, 120_000)

afterAll(async () => {
  await server?.close()
  await store.close()
})

/** A job waiting for its browser (a browser-only tool): its stream stays open until the tab answers. */
async function pausedJob(sessionId: string) {
  const job = newJob({ sessionId, status: 'paused' })
  await store.putJob(job)
  return job
}

interface OpenedStream {
  status: number
  message?: string
  /** Held so it is not collected: fetch cancels the body of a response nobody holds, which closes the stream. */
  response?: Response
  close: () => void
}

/** Opens the job's event stream as `sessionId`; an open one is held until `close()` (an abrupt disconnect). */
async function openStream(sessionId: string, jobId: string): Promise<OpenedStream> {
  const abort = new AbortController()
  const response = await fetch(`${base}/api/chats/${jobId}/events?after=0`, { headers: { cookie: `plugboard-session=${sessionId}`, accept: 'text/event-stream' }, signal: abort.signal })
  if (response.status !== 200) return { status: response.status, message: ((await response.json()) as { message: string }).message, close: () => {} }
  return { status: 200, response, close: () => abort.abort() }
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

describe('event streams of one session', () => {
  it('are capped: 200 opened at once get 32 streams and 168 × 429; closing frees slots', async () => {
    const job = await pausedJob('s-many')
    const streams = await Promise.all(Array.from({ length: 200 }, () => openStream('s-many', job.id)))
    const counts = tally(streams.map(stream => stream.status))
    console.info('200 event streams from one session:', JSON.stringify(counts))
    expect(counts).toEqual({ 200: 32, 429: 168 })
    expect(streams.find(stream => stream.status === 429)!.message).toMatch(/already has 32 chat streams open on this server/)
    expect(openEventStreams('s-many')).toBe(32)

    // Five tabs vanish without a word (sockets dropped): their slots come back, and only theirs.
    const open = streams.filter(stream => stream.status === 200)
    for (const stream of open.slice(0, 5)) stream.close()
    await expect.poll(() => openEventStreams('s-many')).toBe(27)
    const again = await Promise.all(Array.from({ length: 6 }, () => openStream('s-many', job.id)))
    expect(tally(again.map(stream => stream.status))).toEqual({ 200: 5, 429: 1 })

    for (const stream of [...open, ...again]) stream.close()
    await expect.poll(() => openEventStreams('s-many')).toBe(0)
  })

  it('free their slot when the job ends the stream', async () => {
    const job = await pausedJob('s-ending')
    const stream = await openStream('s-ending', job.id)
    expect(openEventStreams('s-ending')).toBe(1)
    await store.appendEvent(job.id, { type: 'finish', finishReason: 'stop', steps: 1 })
    await expect.poll(() => openEventStreams('s-ending')).toBe(0)
    stream.close()
  })

  it('are capped per address too, so minting sessions does not lift the cap', async () => {
    const sessions = Array.from({ length: 5 }, (_, index) => `s-minted-${index}`)
    const statuses: number[] = []
    const held: OpenedStream[] = []
    for (const sessionId of sessions) {
      const job = await pausedJob(sessionId)
      const opened = await Promise.all(Array.from({ length: 32 }, () => openStream(sessionId, job.id)))
      held.push(...opened)
      statuses.push(...opened.map(stream => stream.status))
    }
    expect(tally(statuses)).toEqual({ 200: 128, 429: 32 })
    expect(held.find(stream => stream.status === 429)!.message).toMatch(/Your address already has 128 chat streams open/)
    for (const stream of held) stream.close()
    await expect.poll(() => sessions.reduce((sum, sessionId) => sum + openEventStreams(sessionId), 0)).toBe(0)
  })
})

describe('rate limits on a chat\'s routes', () => {
  it('stop a reconnect flood of GET /events: 120 a minute, then 429', async () => {
    runtimeConfig.rateLimitPerMinute = 30
    try {
      const statuses: number[] = []
      // a job nobody has: each answer is quick, and the guard counts before the route looks
      for (let index = 0; index < 125; index++) statuses.push((await openStream('s-reconnect', 'no-such-job')).status)
      console.info('125 event stream requests:', JSON.stringify(tally(statuses)))
      expect(tally(statuses)).toEqual({ 404: 120, 429: 5 })
    }
    finally {
      runtimeConfig.rateLimitPerMinute = 1000
    }
  })

  it('stop a flood of approvals, tool results and stops: 240 a minute together, then 429', async () => {
    runtimeConfig.rateLimitPerMinute = 30
    try {
      const statuses: number[] = []
      for (let index = 0; index < 250; index++) {
        const route = ['approvals', 'tool-results', 'stop'][index % 3]
        const response = await fetch(`${base}/api/chats/some-job/${route}`, { method: 'POST', headers: { 'cookie': 'plugboard-session=s-answers', 'content-type': 'application/json' }, body: '{"callId":"c","approved":true}' })
        await response.arrayBuffer()
        statuses.push(response.status)
      }
      console.info('250 answers to a chat:', JSON.stringify(tally(statuses)))
      expect(tally(statuses)).toEqual({ 404: 240, 429: 10 })
    }
    finally {
      runtimeConfig.rateLimitPerMinute = 1000
    }
  })
})

/** GET <base>/events/:id through pipeJobEvents, checking the record every 50 ms. */
async function serveEvents(jobStore: JobStore): Promise<{ url: string, close: () => Promise<void> }> {
  const app = h3.createApp()
  app.use('/events', h3.defineEventHandler(event => pipeJobEvents(event, jobStore, event.path.slice(1), 0, { backstopMs: 50 })))
  const eventsServer = createServer(h3.toNodeListener(app))
  await new Promise<void>(done => eventsServer.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(eventsServer.address() as AddressInfo).port}/events`,
    close: async () => {
      eventsServer.closeAllConnections()
      await new Promise(done => eventsServer.close(done))
    },
  }
}

function lastFrame(text: string): { id: number, event: LoopEvent } {
  const block = text.trim().split('\n\n').filter(item => item.includes('data:')).at(-1)!
  return { id: Number(/^id: (\d+)$/m.exec(block)?.[1]), event: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as LoopEvent }
}

describe('a stream whose job record disappears', () => {
  it('ends with a fail frame the tab shows when Redis is flushed', async () => {
    const redisServer = await startRedisServer()
    const redis = new Redis(redisServer.url)
    const redisStore = createRedisJobStore({ redis, keyPrefix: 'plugboard:test' })
    const events = await serveEvents(redisStore)
    try {
      const job = newJob({ status: 'paused' })
      await redisStore.putJob(job)
      await redisStore.appendEvent(job.id, { type: 'step-start', step: 1 })
      const response = await fetch(`${events.url}/${job.id}`)
      const reader = response.body!.getReader()
      // the backlog arrives: the stream is live
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('"step-start"')
      await redis.flushall()
      let text = ''
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value)
      expect(lastFrame(text)).toEqual({ id: 2, event: { type: 'fail', steps: 0, error: { kind: 'server', message: expect.stringMatching(/no longer has this reply.*Press Retry\./), code: 'server.job.vanished', params: {}, retryable: true } } })
    }
    finally {
      await events.close()
      await redisStore.close()
      redis.disconnect()
      await redisServer.stop()
    }
  })

  it('ends with a fail frame when retention drops the job', async () => {
    const shortLived = createMemoryJobStore({ idleJobTtlMs: 300 })
    const events = await serveEvents(shortLived)
    try {
      const job = newJob({ status: 'paused' })
      await shortLived.putJob(job)
      const text = await (await fetch(`${events.url}/${job.id}`)).text()
      expect(lastFrame(text).event).toMatchObject({ type: 'fail', error: { message: expect.stringMatching(/no longer has this reply/) } })
    }
    finally {
      await events.close()
      await shortLived.close()
    }
  })
})
