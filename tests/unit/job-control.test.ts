import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { createLocalJobControl, createRedisJobControl, parseControlMessage } from '~~/server/utils/background-jobs/control/job-control'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { requestJobStop } from '~~/server/utils/background-jobs/control/job-stop'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { answerBrowserCall, isRunningHere } from '~~/server/utils/background-jobs/runner/running-jobs'
import { createChatJob, runChatJob, startChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import { startRedisServer } from './helpers/redis-server'
import type { RedisServer } from './helpers/redis-server'

const user = { role: 'user' as const, content: 'hi' }
const readPage: ExecutableTool['definition'] = { type: 'function', function: { name: 'read_open_page', parameters: { type: 'object', properties: {} } } }

async function events(store: JobStore, jobId: string): Promise<LoopEvent[]> {
  return (await store.readEvents<LoopEvent>(jobId, 0)).map(item => item.event)
}

async function waitForEvent(store: JobStore, jobId: string, match: (event: LoopEvent) => boolean): Promise<void> {
  await vi.waitUntil(async () => (await events(store, jobId)).some(match), { timeout: 5000, interval: 5 })
}

const isEnd = (event: LoopEvent) => event.type === 'finish' || event.type === 'fail'

describe('Stop wherever the job runs', () => {
  it('a run that starts after Stop was asked for ends at once, aborted, without asking the model', async () => {
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: [] })
    // Stop from another instance while the job still waited in the queue: only the flag reaches it.
    expect(await requestJobStop(store, { ...createLocalJobControl(), shared: true }, job)).toBe(false)
    expect((await store.getJob(job.id))!.status).toBe('queued')
    const model = createScriptedModel([textStep('never')])
    await runChatJob(store, job.id, { model })
    expect(model.requests).toHaveLength(0)
    expect((await events(store, job.id)).at(-1)).toEqual({ type: 'finish', finishReason: 'aborted', steps: 0 })
    expect((await store.getJob(job.id))!.status).toBe('stopped')
  })

  it('on one process, a running job nobody runs any more is marked stopped and its stream ended', async () => {
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: [] })
    const running = (await store.updateJob(job.id, { status: 'running' }))!
    await requestJobStop(store, createLocalJobControl(), running)
    expect((await store.getJob(job.id))!.status).toBe('stopped')
    expect(await events(store, job.id)).toEqual([{ type: 'finish', finishReason: 'aborted', steps: 0 }])
  })

  it('a finished job is left as it is', async () => {
    const store = createMemoryJobStore()
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model: createScriptedModel([textStep('ok')]), serverToolNames: [] })
    await waitForEvent(store, job.id, isEnd)
    await vi.waitUntil(async () => (await store.getJob(job.id))!.status === 'done')
    expect(await requestJobStop(store, createLocalJobControl(), (await store.getJob(job.id))!)).toBe(false)
    expect((await store.getJob(job.id))!).toMatchObject({ status: 'done' })
    expect((await store.getJob(job.id))!.stopRequested).toBeUndefined()
  })
})

describe('Cancel on a browser call the job waits for', () => {
  it('ends the call cancelled and lets the chat go on', async () => {
    const store = createMemoryJobStore()
    const model = createScriptedModel([toolCallStep([{ name: 'read_open_page', id: 'b1' }]), textStep('Fine, without the page.')])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [], browserTools: [readPage] })
    await waitForEvent(store, job.id, event => event.type === 'tool-call-status')
    expect(answerBrowserCall(job.id, 'b1', { ok: false, message: 'Cancelled by the user.', cancelled: true })).toBe(true)
    await waitForEvent(store, job.id, isEnd)
    const all = await events(store, job.id)
    expect(all.find(event => event.type === 'tool-call-error')).toMatchObject({ result: { callId: 'b1', status: 'cancelled' } })
    expect(all.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', steps: 2 })
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'b1' })
  })
})

describe('control messages from the channel', () => {
  it('keeps only well-formed messages and only their known fields', () => {
    expect(parseControlMessage('not json')).toBeUndefined()
    expect(parseControlMessage('null')).toBeUndefined()
    expect(parseControlMessage(JSON.stringify({ type: 'stop' }))).toBeUndefined()
    expect(parseControlMessage(JSON.stringify({ type: 'shutdown', jobId: 'j' }))).toBeUndefined()
    expect(parseControlMessage(JSON.stringify({ type: 'stop', jobId: 'j', extra: 1 }))).toEqual({ type: 'stop', jobId: 'j' })
    expect(parseControlMessage(JSON.stringify({ type: 'browser-answer', jobId: 'j', callId: 'c', answer: { ok: true, content: 5 } }))).toBeUndefined()
    expect(parseControlMessage(JSON.stringify({ type: 'browser-answer', jobId: 'j', callId: 'c', answer: { ok: true, content: 'x', __proto__: { polluted: true } } })))
      .toEqual({ type: 'browser-answer', jobId: 'j', callId: 'c', answer: { ok: true, content: 'x' } })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('reads an answer to an MCP server\'s question, and only a well-formed one', () => {
    const message = (answer: unknown) => parseControlMessage(JSON.stringify({ type: 'question-answer', jobId: 'j', answer }))
    expect(message({ callId: 'c', action: 'accept', content: { name: 'Ada' }, extra: 1 })).toEqual({ type: 'question-answer', jobId: 'j', answer: { callId: 'c', action: 'accept', content: { name: 'Ada' } } })
    expect(message({ callId: 'c', action: 'decline' })).toEqual({ type: 'question-answer', jobId: 'j', answer: { callId: 'c', action: 'decline' } })
    expect(message({ callId: 'c', action: 'maybe' })).toBeUndefined()
    expect(message({ action: 'cancel' })).toBeUndefined()
    expect(message({ callId: 'c', action: 'accept', content: ['not', 'an', 'object'] })).toBeUndefined()
  })
})

describe('control over a real redis-server', () => {
  let redis: RedisServer
  let client: Redis
  let publisher: Redis
  beforeAll(async () => {
    redis = await startRedisServer()
    client = new Redis(redis.url)
    publisher = new Redis(redis.url)
  })
  afterAll(async () => {
    client?.disconnect()
    publisher?.disconnect()
    await redis?.stop()
  })

  it('a Stop published by another instance stops the job running here, and a browser answer reaches its call', async () => {
    const control = createRedisJobControl({ redis: client, keyPrefix: 'control-test:' })
    // Give the subscription time to be in place: a SUBSCRIBE that has not landed misses messages.
    await vi.waitUntil(async () => Number((await publisher.pubsub('NUMSUB', 'control-test:job-control'))[1]) === 1, { timeout: 5000, interval: 10 })
    const store = createMemoryJobStore()

    const paused = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model: createScriptedModel([toolCallStep([{ name: 'read_open_page', id: 'b9' }]), textStep('The page says hi.')]), serverToolNames: [], browserTools: [readPage] })
    await waitForEvent(store, paused.id, event => event.type === 'tool-call-status')
    await publisher.publish('control-test:job-control', JSON.stringify({ type: 'browser-answer', jobId: paused.id, callId: 'b9', answer: { ok: true, content: 'hi' } }))
    await waitForEvent(store, paused.id, isEnd)
    expect((await events(store, paused.id)).find(event => event.type === 'tool-call-done')).toMatchObject({ result: { callId: 'b9', content: 'hi' } })

    const slow = await startChatJob(store, { sessionId: 's1', threadId: 't2', messages: [user], model: createScriptedModel([textStep(Array.from({ length: 500 }, (_, n) => `${n} `))], { delayMs: 2 }), serverToolNames: [] })
    await waitForEvent(store, slow.id, event => event.type === 'text-delta')
    await publisher.publish('control-test:job-control', JSON.stringify({ type: 'stop', jobId: slow.id }))
    await waitForEvent(store, slow.id, isEnd)
    expect((await events(store, slow.id)).at(-1)).toEqual({ type: 'finish', finishReason: 'aborted', steps: 1 })
    expect(isRunningHere(slow.id)).toBe(false)

    // The first answer to a call claims it on Redis, so a second tab's answer is refused on any instance.
    expect(await control.claimOnce('answer:j:c')).toBe(true)
    const other = createRedisJobControl({ redis: publisher, keyPrefix: 'control-test:' })
    expect(await other.claimOnce('answer:j:c')).toBe(false)
    await other.close()
    await control.close()
  })
})
