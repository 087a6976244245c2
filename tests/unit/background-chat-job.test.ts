import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { startChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { abortRunningJob, answerBrowserCall } from '~~/server/utils/background-jobs/runner/running-jobs'
import { findOwnChatJob } from '~~/server/utils/background-jobs/control/job-access'
import { WAITING_FOR_BROWSER } from '#shared/types/background-chats'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import { isEnd, waitForEvent } from './helpers/job-events'

const disposers: Array<() => void> = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
})

const user = { role: 'user' as const, content: 'hi' }
const readPage: ExecutableTool['definition'] = { type: 'function', function: { name: 'read_open_page', parameters: { type: 'object', properties: {} } } }

describe('background chat jobs', () => {
  it('runs the shared loop with a server tool and appends every LoopEvent with strictly increasing ids', async () => {
    const handler = vi.fn(() => 'pong')
    disposers.push(registerServerTool({ type: 'function', function: { name: 'job_ping', parameters: { type: 'object', properties: {} } } }, handler, { runtime: 'server' }))
    const store = createMemoryJobStore()
    const model = createScriptedModel([toolCallStep([{ name: 'job_ping', id: 'c1' }]), textStep(['Pong ', 'received.'])])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: ['job_ping'] })
    await waitForEvent(store, job.id, isEnd)

    const events = await store.readEvents<LoopEvent>(job.id, 0)
    expect(events.map(item => item.id)).toEqual(events.map((_, index) => index + 1))
    expect(events.map(item => item.event.type)).toEqual([
      'step-start', 'tool-call-queued', 'step-finish', 'tool-call-approval', 'tool-call-running', 'tool-call-done',
      'step-start', 'text-delta', 'text-delta', 'step-finish', 'finish',
    ])
    expect(handler).toHaveBeenCalledOnce()
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'job_ping', content: 'pong' })
    expect(await store.getJob(job.id)).toMatchObject({ status: 'done', sessionId: 's1', threadId: 't1' })
  })

  it('does not offer server tools that were switched off at send time', async () => {
    disposers.push(registerServerTool({ type: 'function', function: { name: 'job_off', parameters: { type: 'object', properties: {} } } }, () => 'x', { runtime: 'server' }))
    const store = createMemoryJobStore()
    const model = createScriptedModel([textStep('ok')])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [] })
    await waitForEvent(store, job.id, isEnd)
    expect(model.requests[0]).not.toHaveProperty('tools')
  })

  it('stops on request: the loop ends aborted, the stream says so and the job is stopped', async () => {
    const store = createMemoryJobStore()
    const model = createScriptedModel([textStep(Array.from({ length: 200 }, (_, n) => `${n} `))], { delayMs: 1 })
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [] })
    await waitForEvent(store, job.id, event => event.type === 'text-delta')
    expect(abortRunningJob(job.id)).toBe(true)
    const end = await waitForEvent(store, job.id, isEnd)
    expect(end.event).toEqual({ type: 'finish', finishReason: 'aborted', steps: 1 })
    await vi.waitUntil(async () => (await store.getJob(job.id))?.status === 'stopped')
    expect(abortRunningJob(job.id)).toBe(false)
  })

  it('pauses on a browser-only tool, with the card waiting for this browser, until a tab answers', async () => {
    const store = createMemoryJobStore()
    const model = createScriptedModel([toolCallStep([{ name: 'read_open_page', id: 'b1' }]), textStep('The page says hello.')])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [], browserTools: [readPage] })
    const waiting = await waitForEvent(store, job.id, event => event.type === 'tool-call-status')
    expect(waiting.event).toEqual({ type: 'tool-call-status', step: 1, callId: 'b1', text: WAITING_FOR_BROWSER })
    await vi.waitUntil(async () => (await store.getJob(job.id))?.status === 'paused')
    expect(model.requests).toHaveLength(1)

    expect(answerBrowserCall(job.id, 'b1', { ok: true, content: 'hello' })).toBe(true)
    expect(answerBrowserCall(job.id, 'b1', { ok: true, content: 'again' })).toBe(false)
    await waitForEvent(store, job.id, isEnd)
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'b1', name: 'read_open_page', content: 'hello' })
    expect(await store.getJob(job.id)).toMatchObject({ status: 'done' })
  })

  it('cancels the waiting browser call when the job is stopped', async () => {
    const store = createMemoryJobStore()
    const model = createScriptedModel([toolCallStep([{ name: 'read_open_page', id: 'b1' }])])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [], browserTools: [readPage] })
    await waitForEvent(store, job.id, event => event.type === 'tool-call-status')
    abortRunningJob(job.id)
    await waitForEvent(store, job.id, isEnd)
    const results = (await store.readEvents<LoopEvent>(job.id, 0)).map(item => item.event).filter(event => event.type === 'tool-call-error')
    expect(results).toMatchObject([{ result: { callId: 'b1', status: 'cancelled' } }])
  })

  it('lets only the session that started a job find it', async () => {
    const store = createMemoryJobStore()
    const job = await startChatJob(store, { sessionId: 'mine', threadId: 't1', messages: [user], model: createScriptedModel([textStep('ok')]), serverToolNames: [] })
    expect(await findOwnChatJob(store, 'mine', job.id)).toMatchObject({ id: job.id })
    expect(await findOwnChatJob(store, 'theirs', job.id)).toBeUndefined()
    expect(await findOwnChatJob(store, 'mine', 'no-such-job')).toBeUndefined()
  })

  it('delivers the backlog and then live events to a late subscriber, each once and in order', async () => {
    const store = createMemoryJobStore()
    const model = createScriptedModel([textStep(['a', 'b', 'c', 'd'])], { delayMs: 1 })
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [] })
    const first = await waitForEvent(store, job.id, event => event.type === 'text-delta')
    const seen: number[] = []
    const controller = new AbortController()
    await store.subscribe<LoopEvent>(job.id, first.id, item => seen.push(item.id), controller.signal)
    await waitForEvent(store, job.id, isEnd)
    controller.abort()
    const all = await store.readEvents(job.id, first.id)
    expect(seen).toEqual(all.map(item => item.id))
  })
})
