import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { startChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { abortRunningJob } from '~~/server/utils/background-jobs/runner/running-jobs'
import { answerJobApproval } from '~~/server/utils/background-jobs/runner/pending-approvals'
import { applyJobControl, parseControlMessage } from '~~/server/utils/background-jobs/control/job-control'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { DENIED_CONTENT } from '#shared/loop/tool-approval'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import { watchSavedStates } from './helpers/saved-states'
import { isEnd, waitForEvent } from './helpers/job-events'

const disposers: Array<() => void> = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
})

const user = { role: 'user' as const, content: 'read it' }

/** A server tool that acts outside the app (so it asks by default), recording what it ran with. */
function outsideTool(name: string, ran: unknown[]) {
  disposers.push(registerServerTool({
    type: 'function',
    function: { name, parameters: { type: 'object', properties: { url: { type: 'string', pattern: '^https://' } }, required: ['url'] } },
    actsOutsideApp: true,
  }, (args) => {
    ran.push(args)
    return `read ${(args as { url: string }).url}`
  }, { runtime: 'server' }))
}

async function startAsking(name: string, ran: unknown[], toolPolicies?: Record<string, 'auto' | 'ask' | 'never'>) {
  outsideTool(name, ran)
  const store = createMemoryJobStore()
  const savedState = watchSavedStates(store)
  const model = createScriptedModel([toolCallStep([{ name, args: { url: 'https://a.example' }, id: 'c1' }]), textStep('Done.')])
  const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [name], ...(toolPolicies && { toolPolicies }) })
  return { store, model, job, savedState }
}

describe('background chats wait for approval', () => {
  it('pauses on a call that asks, emits the awaiting event, and goes on with the edited arguments once a tab answers', async () => {
    const ran: unknown[] = []
    const { store, model, job, savedState } = await startAsking('job_fetch_a', ran)
    const awaiting = await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')
    expect(awaiting.event).toMatchObject({ step: 1, call: { id: 'c1', function: { name: 'job_fetch_a' } } })
    await vi.waitUntil(async () => (await store.getJob(job.id))?.status === 'paused')
    expect(ran).toEqual([])

    // edited arguments that break the schema are refused; the call keeps waiting
    expect(answerJobApproval(job.id, 'c1', { decision: 'allowed-once', arguments: '{"url":"http://inside"}' })).toMatchObject({ ok: false, reason: 'invalid' })
    expect(answerJobApproval(job.id, 'c1', { decision: 'allowed-once', arguments: '{"url":' })).toMatchObject({ ok: false, reason: 'invalid' })
    expect(answerJobApproval(job.id, 'nope', { decision: 'allowed-once' })).toEqual({ ok: false, reason: 'not-waiting' })
    expect(answerJobApproval(job.id, 'c1', { decision: 'allowed-once', arguments: '{"url":"https://b.example"}' })).toEqual({ ok: true })
    expect(answerJobApproval(job.id, 'c1', { decision: 'denied' })).toEqual({ ok: false, reason: 'not-waiting' })

    await waitForEvent(store, job.id, isEnd)
    expect(ran).toEqual([{ url: 'https://b.example' }])
    const edited = { id: 'c1', type: 'function', function: { name: 'job_fetch_a', arguments: '{"url":"https://b.example"}' } }
    expect(model.requests[1]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [edited] },
      { role: 'tool', tool_call_id: 'c1', name: 'job_fetch_a', content: 'read https://b.example' },
    ])
    // a takeover would replay what ran
    const state = savedState(job.id)!
    expect(state.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [edited] })
    expect(await store.getJob(job.id)).toMatchObject({ status: 'done' })
  })

  it('gives the model the declined result on Deny', async () => {
    const ran: unknown[] = []
    const { store, model, job } = await startAsking('job_fetch_b', ran)
    await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')
    expect(answerJobApproval(job.id, 'c1', { decision: 'denied' })).toEqual({ ok: true })
    await waitForEvent(store, job.id, isEnd)
    expect(ran).toEqual([])
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'job_fetch_b', content: DENIED_CONTENT })
  })

  it('follows the policies the tab sent: auto runs at once, never refuses', async () => {
    const ran: unknown[] = []
    const { store, job } = await startAsking('job_fetch_c', ran, { job_fetch_c: 'auto' })
    await waitForEvent(store, job.id, isEnd)
    expect(ran).toEqual([{ url: 'https://a.example' }])
    const kinds = (await store.readEvents<LoopEvent>(job.id, 0)).map(item => item.event.type)
    expect(kinds).not.toContain('tool-call-awaiting-approval')

    const refused: unknown[] = []
    const never = await startAsking('job_fetch_d', refused, { job_fetch_d: 'never' })
    await waitForEvent(never.store, never.job.id, isEnd)
    expect(refused).toEqual([])
    expect(never.model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/never allow/) })
  })

  it('ends the wait when the job is stopped: the call is cancelled and the job is stopped', async () => {
    const ran: unknown[] = []
    const { store, job } = await startAsking('job_fetch_e', ran)
    await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')
    expect(abortRunningJob(job.id)).toBe(true)
    const end = await waitForEvent(store, job.id, isEnd)
    expect(end.event).toEqual({ type: 'finish', finishReason: 'aborted', steps: 1 })
    const results = (await store.readEvents<LoopEvent>(job.id, 0)).map(item => item.event).filter(event => event.type === 'tool-call-error')
    expect(results).toMatchObject([{ result: { callId: 'c1', status: 'cancelled' } }])
    expect(answerJobApproval(job.id, 'c1', { decision: 'allowed-once' })).toEqual({ ok: false, reason: 'not-waiting' })
    expect(ran).toEqual([])
  })

  it('runs later calls of the same job without asking after Always allow', async () => {
    const ran: unknown[] = []
    outsideTool('job_fetch_f', ran)
    const store = createMemoryJobStore()
    const model = createScriptedModel([
      toolCallStep([{ name: 'job_fetch_f', args: { url: 'https://a.example' }, id: 'f1' }]),
      toolCallStep([{ name: 'job_fetch_f', args: { url: 'https://b.example' }, id: 'f2' }]),
      textStep('Done.'),
    ])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: ['job_fetch_f'], toolPolicies: { job_fetch_f: 'ask' } })
    await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')
    expect(answerJobApproval(job.id, 'f1', { decision: 'always-allowed' })).toEqual({ ok: true })
    await waitForEvent(store, job.id, isEnd)
    expect(ran).toEqual([{ url: 'https://a.example' }, { url: 'https://b.example' }])
    const decisions = (await store.readEvents<LoopEvent>(job.id, 0)).map(item => item.event).flatMap(event => (event.type === 'tool-call-approval' ? [event.decision] : []))
    expect(decisions).toEqual(['always-allowed', 'auto'])
  })

  it('takes an answer that came through the job control (another instance took the request)', async () => {
    const ran: unknown[] = []
    const { store, job } = await startAsking('job_fetch_g', ran)
    await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')
    const text = JSON.stringify({ type: 'approval-answer', jobId: job.id, callId: 'c1', answer: { decision: 'allowed-once', arguments: '{"url":"https://c.example"}' } })
    const message = parseControlMessage(text)
    expect(message).toEqual({ type: 'approval-answer', jobId: job.id, callId: 'c1', answer: { decision: 'allowed-once', arguments: '{"url":"https://c.example"}' } })
    expect(parseControlMessage(JSON.stringify({ type: 'approval-answer', jobId: job.id, callId: 'c1', answer: { decision: 'run-anyway' } }))).toBeUndefined()
    expect(parseControlMessage(JSON.stringify({ type: 'approval-answer', jobId: job.id, callId: 'c1', answer: { decision: 'denied', arguments: 5 } }))).toBeUndefined()
    expect(applyJobControl(message!)).toBe(true)
    await waitForEvent(store, job.id, isEnd)
    expect(ran).toEqual([{ url: 'https://c.example' }])
  })
})
