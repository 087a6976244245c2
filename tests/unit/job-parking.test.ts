import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { NO_ANSWER_CONTENT } from '#shared/loop/tool-approval'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { createInProcessJobQueue } from '~~/server/utils/background-jobs/queue/in-process-job-queue'
import { createBullmqJobQueue } from '~~/server/utils/background-jobs/queue/bullmq-job-queue'
import type { JobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import type { RunChatJobOptions } from '~~/server/utils/background-jobs/runner/stream-handler'
import { answerJobApproval } from '~~/server/utils/background-jobs/runner/pending-approvals'
import { answerBrowserCall } from '~~/server/utils/background-jobs/runner/running-jobs'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import type { ScriptedModel } from './helpers/scripted-model'
import { startRedisServer } from './helpers/redis-server'
import type { RedisServer } from './helpers/redis-server'

const disposers: Array<() => unknown> = []
afterEach(async () => {
  vi.useRealTimers()
  for (const dispose of disposers.splice(0).reverse()) await dispose()
})

const user = { role: 'user' as const, content: 'go' }

function askTool(name: string) {
  disposers.push(registerServerTool({
    type: 'function',
    function: { name, parameters: { type: 'object', properties: {} } },
    actsOutsideApp: true,
  }, () => 'sent', { runtime: 'server' }))
}

interface Harness {
  store: JobStore
  queue: JobQueue<{ kind: 'chat' }>
  models: Map<string, ScriptedModel>
  start: (sessionId: string, model: ScriptedModel, extra?: { serverToolNames?: string[], browserTools?: never[] }) => Promise<string>
}

let redis: RedisServer | undefined
let queueRun = 0
afterAll(async () => {
  await redis?.stop()
})

/**
 * The server's path: a stored job, queued, run by the queue's worker with the run's slot (as chat-worker.ts does);
 * in this process, or through BullMQ when `redisUrl` is given.
 */
function harness(options: { concurrency: number, waitTimeoutMs?: number, redisUrl?: string }): Harness {
  const store = createMemoryJobStore()
  const queue = options.redisUrl
    ? createBullmqJobQueue<{ kind: 'chat' }>({ url: options.redisUrl, name: `parking-${process.pid}-${++queueRun}`, concurrency: options.concurrency, attempts: 1 })
    : createInProcessJobQueue<{ kind: 'chat' }>({ concurrency: options.concurrency, attempts: 1 })
  const models = new Map<string, ScriptedModel>()
  queue.startWorker(async (jobId, _data, { attempt, signal, slot }) => {
    const run: RunChatJobOptions = { attempt, signal, slot, model: models.get(jobId)!, ...(options.waitTimeoutMs && { waitTimeoutMs: options.waitTimeoutMs }) }
    await runChatJob(store, jobId, run)
  })
  disposers.push(() => queue.close(), () => store.close())
  return {
    store,
    queue,
    models,
    async start(sessionId, model, extra = {}) {
      const job = await createChatJob(store, { sessionId, threadId: `t-${sessionId}`, messages: [user], modelName: 'm', serverToolNames: extra.serverToolNames ?? [], ...(extra.browserTools && { browserTools: extra.browserTools }) })
      models.set(job.id, model)
      await queue.enqueue(job.id, { kind: 'chat' })
      return job.id
    },
  }
}

async function events(store: JobStore, jobId: string): Promise<LoopEvent[]> {
  return (await store.readEvents<LoopEvent>(jobId, 0)).map(item => item.event)
}

describe('a chat waiting for a person gives its runner slot back', () => {
  it('runs session B\'s chat to the end while ten chats of session A wait for approvals', async () => {
    askTool('park_ask')
    const { store, start } = harness({ concurrency: 10 })
    const waiting: string[] = []
    for (let index = 0; index < 10; index++) {
      waiting.push(await start('session-a', createScriptedModel([toolCallStep([{ name: 'park_ask', args: {}, id: 'ask' }]), textStep('A done.')]), { serverToolNames: ['park_ask'] }))
    }
    await expect.poll(async () => (await Promise.all(waiting.map(id => store.getJob(id)))).filter(job => job?.status === 'paused').length, { timeout: 5000 }).toBe(10)

    const other = await start('session-b', createScriptedModel([textStep('B answered.')]))
    await expect.poll(async () => (await store.getJob(other))?.status, { timeout: 5000 }).toBe('done')
    expect((await events(store, other)).at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' })

    // the parked chats go on when answered: each takes a slot again and finishes
    for (const id of waiting) expect(answerJobApproval(id, 'ask', { decision: 'allowed-once' })).toEqual({ ok: true })
    await expect.poll(async () => (await Promise.all(waiting.map(id => store.getJob(id)))).every(job => job?.status === 'done'), { timeout: 5000 }).toBe(true)
  })

  it('lets an answered chat go on before chats that have not started, and never runs more than the limit', async () => {
    askTool('park_ask_order')
    const { store, start } = harness({ concurrency: 1 })
    let running = 0
    let most = 0
    // B's reply holds the one slot until released, so A's answer arrives while the slot is busy
    let releaseB!: () => void
    const bHolds = new Promise<void>(resolve => (releaseB = resolve))
    const counted = (text: string, hold?: Promise<void>) => async function* () {
      running++
      most = Math.max(most, running)
      if (hold) await hold
      running--
      yield* textStep(text)
    }
    const parked = await start('session-a', createScriptedModel([toolCallStep([{ name: 'park_ask_order', args: {}, id: 'ask' }]), counted('A done.')]), { serverToolNames: ['park_ask_order'] })
    await expect.poll(async () => (await store.getJob(parked))?.status, { timeout: 5000 }).toBe('paused')
    const b = await start('session-b', createScriptedModel([counted('B done.', bHolds)]))
    await expect.poll(async () => (await store.getJob(b))?.status, { timeout: 5000 }).toBe('running')
    const c = await start('session-c', createScriptedModel([counted('C done.')]))

    answerJobApproval(parked, 'ask', { decision: 'allowed-once' })
    releaseB()
    await expect.poll(async () => (await store.getJob(c))?.status, { timeout: 5000 }).toBe('done')
    const [aJob, cJob] = [await store.getJob(parked), await store.getJob(c)]
    expect(aJob?.status).toBe('done')
    // A went on before C started (its end is no later than C's)
    expect(aJob!.updatedAt).toBeLessThanOrEqual(cJob!.updatedAt)
    expect(most).toBe(1)
  })
})

describe('on Redis (BullMQ), a parked chat leaves its place in the worker too', () => {
  beforeAll(async () => {
    redis = await startRedisServer()
  })

  it('runs session B\'s chat to the end while ten chats of session A wait for approvals', async () => {
    askTool('park_ask_bullmq')
    const { store, start } = harness({ concurrency: 10, redisUrl: redis!.url })
    const waiting: string[] = []
    for (let index = 0; index < 10; index++) {
      waiting.push(await start('session-a', createScriptedModel([toolCallStep([{ name: 'park_ask_bullmq', args: {}, id: 'ask' }]), textStep('A done.')]), { serverToolNames: ['park_ask_bullmq'] }))
    }
    await expect.poll(async () => (await Promise.all(waiting.map(id => store.getJob(id)))).filter(job => job?.status === 'paused').length, { timeout: 10_000 }).toBe(10)

    const other = await start('session-b', createScriptedModel([textStep('B answered.')]))
    await expect.poll(async () => (await store.getJob(other))?.status, { timeout: 10_000 }).toBe('done')

    for (const id of waiting) expect(answerJobApproval(id, 'ask', { decision: 'allowed-once' })).toEqual({ ok: true })
    await expect.poll(async () => (await Promise.all(waiting.map(id => store.getJob(id)))).every(job => job?.status === 'done'), { timeout: 10_000 }).toBe(true)
  })
})

describe('a wait for a person has a time limit', () => {
  it('ends an unanswered approval as "no answer" and the chat goes on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    askTool('park_ask_timeout')
    const { store, start } = harness({ concurrency: 1, waitTimeoutMs: 60_000 })
    const model = createScriptedModel([toolCallStep([{ name: 'park_ask_timeout', args: {}, id: 'ask' }]), textStep('Went on without it.')])
    const id = await start('session-a', model, { serverToolNames: ['park_ask_timeout'] })
    await vi.waitUntil(async () => (await store.getJob(id))?.status === 'paused')
    await vi.advanceTimersByTimeAsync(60_000)
    await vi.waitUntil(async () => (await store.getJob(id))?.status === 'done')

    const all = await events(store, id)
    expect(all).toContainEqual(expect.objectContaining({ type: 'tool-call-approval', callId: 'ask', decision: 'no-answer' }))
    expect(all).toContainEqual(expect.objectContaining({ type: 'tool-call-error', result: expect.objectContaining({ status: 'denied', error: { kind: 'no-answer', message: NO_ANSWER_CONTENT } }) }))
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'ask', name: 'park_ask_timeout', content: NO_ANSWER_CONTENT })
    expect(all.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' })
  })

  it('ends a browser tool no tab runs as timed out, takes its slot back and goes on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { store, start } = harness({ concurrency: 1, waitTimeoutMs: 60_000 })
    const browserTools = [{ type: 'function', function: { name: 'tab_only', parameters: { type: 'object', properties: {} } } }] as never[]
    const model = createScriptedModel([toolCallStep([{ name: 'tab_only', args: {}, id: 'tab' }]), textStep('Went on.')])
    const id = await start('session-a', model, { browserTools })
    await vi.waitUntil(async () => (await store.getJob(id))?.status === 'paused')
    await vi.advanceTimersByTimeAsync(60_000)
    await vi.waitUntil(async () => (await store.getJob(id))?.status === 'done')
    expect(await events(store, id)).toContainEqual(expect.objectContaining({ type: 'tool-call-error', result: expect.objectContaining({ status: 'error', error: expect.objectContaining({ kind: 'timeout' }) }) }))
    // too late: the call is no longer waiting
    expect(answerBrowserCall(id, 'tab', { ok: true, content: 'late' })).toBe(false)
  })
})
