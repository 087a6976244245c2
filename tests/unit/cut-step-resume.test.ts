// A takeover of a chat whose last step had its reply but not all of its calls' ends: what the new run does with each
// call, read from the job's stream as the cut run left it (embedded store, scripted model).
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolResult } from '#shared/tools/tool-types'
import type { ToolCall } from '#shared/types/chat'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { answerJobApproval } from '~~/server/utils/background-jobs/runner/pending-approvals'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import { watchSavedStates } from './helpers/saved-states'

const disposers: Array<() => void> = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
})

const user = { role: 'user' as const, content: 'hi' }

function register(name: string, handler: (args: unknown) => unknown, extra: { actsOutsideApp?: boolean } = {}) {
  const spy = vi.fn(handler)
  disposers.push(registerServerTool({ type: 'function', function: { name, parameters: { type: 'object', properties: { n: { type: 'number' } } } }, ...extra }, spy, { runtime: 'server' }))
  return spy
}

function call(id: string, name: string, args = '{}'): ToolCall {
  return { id, type: 'function', function: { name, arguments: args } }
}

function result(callId: string, name: string, content: string): ToolResult {
  return { callId, name, arguments: '{}', status: 'done', content, fullContent: content, truncated: false, startedAt: 1, finishedAt: 2 }
}

/** The job's stream as a run that died in step 1 left it (its claim taken, as the dead run's was). */
async function cutRun(store: JobStore, jobId: string, events: LoopEvent[]): Promise<void> {
  const claimed = await store.claimJob(jobId, { status: 'running' })
  for (const event of events) await store.appendEvent(jobId, event, { token: claimed!.runToken! })
}

async function eventsOf(store: JobStore, jobId: string): Promise<LoopEvent[]> {
  return (await store.readEvents<LoopEvent>(jobId, 0)).map(item => item.event)
}

describe('a takeover of a step cut after its reply', () => {
  it('saves a step whose calls had all ended and goes on, running none of them again', async () => {
    const tool = register('cut_saved', () => 'again')
    const store = createMemoryJobStore()
    const savedState = watchSavedStates(store)
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: ['cut_saved'] })
    const calls = [call('c1', 'cut_saved'), call('c2', 'cut_saved', '{"n":2}')]
    await cutRun(store, job.id, [
      { type: 'step-start', step: 1 },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: null, tool_calls: calls }, finishReason: 'tool_calls' },
      { type: 'tool-call-running', step: 1, call: calls[0]! },
      { type: 'tool-call-running', step: 1, call: calls[1]! },
      { type: 'tool-call-done', step: 1, result: result('c2', 'cut_saved', 'two') },
      { type: 'tool-call-done', step: 1, result: result('c1', 'cut_saved', 'one') },
    ])
    const model = createScriptedModel([textStep('Done.')])
    await runChatJob(store, job.id, { model, attempt: 2 })

    expect(tool).not.toHaveBeenCalled()
    expect(model.requests).toHaveLength(1)
    expect(model.requests[0]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: calls },
      { role: 'tool', tool_call_id: 'c1', name: 'cut_saved', content: 'one' },
      { role: 'tool', tool_call_id: 'c2', name: 'cut_saved', content: 'two' },
    ])
    const events = await eventsOf(store, job.id)
    expect(events.slice(6).map(event => event.type)).toEqual(['step-start', 'text-delta', 'step-finish', 'finish'])
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', steps: 2 })
    const state = savedState(job.id)!
    expect(state.stepsDone).toBe(1)
    // The saved step ends at the cut run's last event: a later takeover reads on from there.
    expect(state.eventsThrough).toBe(6)
  })

  it('runs a call the user had approved (with the arguments they edited) that had not started, without asking again', async () => {
    const tool = register('cut_approved', args => `ran with ${JSON.stringify(args)}`)
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: ['cut_approved'], toolPolicies: { cut_approved: 'ask' } })
    const asked = call('c1', 'cut_approved', '{"n":1}')
    await cutRun(store, job.id, [
      { type: 'step-start', step: 1 },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: null, tool_calls: [asked] }, finishReason: 'tool_calls' },
      { type: 'tool-call-awaiting-approval', step: 1, call: asked },
      { type: 'tool-call-approval', step: 1, callId: 'c1', toolName: 'cut_approved', decision: 'allowed-once', arguments: '{"n":7}', askedArguments: '{"n":1}', decidedAt: 1 },
    ])
    const model = createScriptedModel([textStep('Done.')])
    await runChatJob(store, job.id, { model, attempt: 2 })

    expect(tool).toHaveBeenCalledOnce()
    expect(tool.mock.calls[0]![0]).toEqual({ n: 7 })
    expect(model.requests[0]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [call('c1', 'cut_approved', '{"n":7}')] },
      { role: 'tool', tool_call_id: 'c1', name: 'cut_approved', content: 'ran with {"n":7}' },
    ])
    const resumed = (await eventsOf(store, job.id)).slice(4)
    expect(resumed.filter(event => event.type === 'tool-call-awaiting-approval')).toEqual([])
    expect(resumed[0]).toMatchObject({ type: 'tool-call-running', step: 1, call: { id: 'c1' } })
  })

  it('asks again for a call that was waiting for approval when its instance went away, and runs it once answered', async () => {
    const tool = register('cut_waiting', () => 'sent')
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: ['cut_waiting'], toolPolicies: { cut_waiting: 'ask' } })

    // Run 1 waits for the user's answer; its instance shuts down there (the run throws, writing no end).
    const dying = new AbortController()
    const runA = runChatJob(store, job.id, { model: createScriptedModel([toolCallStep([{ name: 'cut_waiting', id: 'w1' }])]), signal: dying.signal })
    await vi.waitUntil(async () => (await eventsOf(store, job.id)).some(event => event.type === 'tool-call-awaiting-approval'), { timeout: 5000, interval: 5 })
    dying.abort()
    await expect(runA).rejects.toThrow(/shutting down/)
    const cutAt = (await eventsOf(store, job.id)).length

    const model = createScriptedModel([textStep('Sent it.')])
    const runB = runChatJob(store, job.id, { model, attempt: 2 })
    await vi.waitUntil(async () => (await eventsOf(store, job.id)).slice(cutAt).some(event => event.type === 'tool-call-awaiting-approval'), { timeout: 5000, interval: 5 })
    expect((await store.getJob(job.id))!.status).toBe('paused')
    expect(tool).not.toHaveBeenCalled()
    expect(answerJobApproval(job.id, 'w1', { decision: 'allowed-once' })).toEqual({ ok: true })
    await runB

    expect(tool).toHaveBeenCalledOnce()
    const events = await eventsOf(store, job.id)
    expect(events.filter(event => event.type === 'step-start')).toEqual([{ type: 'step-start', step: 1 }, { type: 'step-start', step: 2 }])
    expect(model.requests[0]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'w1', name: 'cut_waiting', content: 'sent' })
    expect((await store.getJob(job.id))!.status).toBe('done')
  })

  it('asks the model again when the cut step had no complete reply yet', async () => {
    const tool = register('cut_streaming', () => 'ran')
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: ['cut_streaming'] })
    await cutRun(store, job.id, [{ type: 'step-start', step: 1 }, { type: 'text-delta', step: 1, text: 'Let me' }])
    const model = createScriptedModel([toolCallStep([{ name: 'cut_streaming', id: 'n1' }]), textStep('Done.')])
    await runChatJob(store, job.id, { model, attempt: 2 })

    expect(model.requests).toHaveLength(2)
    expect(tool).toHaveBeenCalledOnce()
    expect((await eventsOf(store, job.id)).filter(event => event.type === 'step-start')).toEqual([{ type: 'step-start', step: 1 }, { type: 'step-start', step: 1 }, { type: 'step-start', step: 2 }])
  })
})
