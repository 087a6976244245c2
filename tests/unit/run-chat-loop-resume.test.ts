import { describe, expect, it, vi } from 'vitest'
import { foldLoopEvents } from '#shared/loop/conversation-state'
import type { LoopEvent } from '#shared/loop/loop-event'
import { INTERRUPTED_TOOL_MESSAGE } from '#shared/loop/resume-step'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import type { RunChatLoopOptions } from '#shared/loop/loop-types'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool, ToolResult } from '#shared/tools/tool-types'
import type { AssistantMessage, ModelMessage, ToolCall } from '#shared/types/chat'
import { createScriptedModel, textStep } from './helpers/scripted-model'

const user: ModelMessage = { role: 'user', content: 'Do it.' }
const call = (id: string, name: string, args = '{}'): ToolCall => ({ id, type: 'function', function: { name, arguments: args } })
const result = (id: string, name: string, content: string): ToolResult => ({
  callId: id, name, arguments: '{}', status: 'done', content, fullContent: content, truncated: false, startedAt: 0, finishedAt: 0,
})

function tools(...names: string[]) {
  const handlers = Object.fromEntries(names.map(name => [name, vi.fn((args: Record<string, unknown>) => `${name} ran with ${JSON.stringify(args)}`)]))
  const executables: ExecutableTool[] = names.map(name => ({
    definition: { type: 'function', function: { name, description: name, parameters: { type: 'object', properties: { n: { type: 'number' } } } } },
    handler: handlers[name]!,
  }))
  return { set: toolSetFromArray(executables), handlers }
}

/** The state a run left when it was cut: its events up to the cut, folded. */
function cutAfter(reply: AssistantMessage, events: LoopEvent[]) {
  return foldLoopEvents([{ type: 'step-start', step: 1 }, { type: 'step-finish', step: 1, message: reply, finishReason: 'tool_calls' }, ...events])
}

async function resume(options: Omit<RunChatLoopOptions, 'model' | 'messages' | 'threadId'>, steps = [textStep('All done.')]) {
  const events: LoopEvent[] = []
  const model = createScriptedModel(steps)
  const outcome = await runChatLoop({ model, messages: [user], threadId: 't', ...options, onEvent: event => void events.push(event) })
  return { events, outcome, model }
}

describe('runChatLoop({ resume }): a half-run step is finished, then the chat goes on', () => {
  it('keeps the results of calls that ended and runs the calls cleared to run, without asking the model again for the step', async () => {
    const { set, handlers } = tools('first', 'second')
    const reply: AssistantMessage = { role: 'assistant', content: null, tool_calls: [call('a', 'first'), call('b', 'second', '{"n":1}')] }
    const state = cutAfter(reply, [
      { type: 'tool-call-done', step: 1, result: result('a', 'first', 'kept') },
      { type: 'tool-call-approval', step: 1, callId: 'b', toolName: 'second', decision: 'allowed-once', arguments: '{"n":2}', askedArguments: '{"n":1}', decidedAt: 0 },
    ])
    const { events, outcome, model } = await resume({ tools: set, resume: state })

    expect(handlers.first).not.toHaveBeenCalled()
    expect(handlers.second).toHaveBeenCalledWith({ n: 2 }, expect.anything())
    const edited = { ...reply, tool_calls: [call('a', 'first'), call('b', 'second', '{"n":2}')] }
    const history = [user, edited, { role: 'tool', tool_call_id: 'a', name: 'first', content: 'kept' }, { role: 'tool', tool_call_id: 'b', name: 'second', content: 'second ran with {"n":2}' }]
    expect(model.requests).toHaveLength(1)
    expect(model.requests[0]!.messages).toEqual(history)
    expect(outcome).toMatchObject({ finishReason: 'stop', steps: 2 })
    expect(events.map(event => [event.type, 'step' in event ? event.step : event.steps])).toEqual([
      ['tool-call-running', 1], ['tool-call-done', 1], ['step-start', 2], ['text-delta', 2], ['step-finish', 2], ['finish', 2],
    ])
  })

  it('runs a call cut while it ran again only when that is safe, else ends it as interrupted', async () => {
    const { set, handlers } = tools('safe', 'outside')
    const reply: AssistantMessage = { role: 'assistant', content: null, tool_calls: [call('s', 'safe'), call('o', 'outside')] }
    const state = cutAfter(reply, [{ type: 'tool-call-running', step: 1, call: call('s', 'safe') }, { type: 'tool-call-running', step: 1, call: call('o', 'outside') }])
    const { events } = await resume({ tools: set, resume: state, isSafeToRepeat: name => name === 'safe' })

    expect(handlers.safe).toHaveBeenCalledOnce()
    expect(handlers.outside).not.toHaveBeenCalled()
    const ends = events.filter(event => event.type === 'tool-call-done' || event.type === 'tool-call-error')
    expect(ends).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'tool-call-done', result: expect.objectContaining({ callId: 's' }) }),
      expect.objectContaining({ type: 'tool-call-error', result: expect.objectContaining({ callId: 'o', status: 'error', error: { kind: 'interrupted', message: INTERRUPTED_TOOL_MESSAGE } }) }),
    ]))
  })

  it('decides calls that were never decided as the loop would, and asks again about a call left waiting', async () => {
    const { set, handlers } = tools('refused', 'waiting')
    const reply: AssistantMessage = { role: 'assistant', content: null, tool_calls: [call('r', 'refused'), call('w', 'waiting', '{"n":1}')] }
    const state = cutAfter(reply, [{ type: 'tool-call-awaiting-approval', step: 1, call: call('w', 'waiting', '{"n":1}') }])
    const approveToolCall = vi.fn(async () => ({ decision: 'always-allowed' as const, arguments: '{"n":5}' }))
    // "Always allow" already turned the waiting tool to 'auto': the user's edit still decides what runs.
    const { events } = await resume({ tools: set, resume: state, toolPolicy: name => (name === 'refused' ? 'never' : 'auto'), approveToolCall })

    expect(approveToolCall).toHaveBeenCalledOnce()
    expect(handlers.refused).not.toHaveBeenCalled()
    expect(handlers.waiting).toHaveBeenCalledWith({ n: 5 }, expect.anything())
    expect(events.filter(event => event.type === 'tool-call-approval').map(event => [event.callId, event.decision])).toEqual(expect.arrayContaining([['r', 'never'], ['w', 'always-allowed']]))
  })

  it('counts the resumed step against the step limit', async () => {
    const { set } = tools('first')
    const state = cutAfter({ role: 'assistant', content: null, tool_calls: [call('a', 'first')] }, [])
    const { outcome, model, events } = await resume({ tools: set, resume: state, maxSteps: 1 }, [])
    expect(model.requests).toHaveLength(0)
    expect(outcome.finishReason).toBe('step-cap')
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'step-cap', steps: 1 })
  })

  it('asks the step again when the cut came before the reply was complete, or the reply was stopped', async () => {
    const { set } = tools('first')
    const streaming = foldLoopEvents([{ type: 'step-start', step: 1 }, { type: 'text-delta', step: 1, text: 'Let me' }])
    const stopped = foldLoopEvents([{ type: 'step-start', step: 1 }, { type: 'step-finish', step: 1, message: { role: 'assistant', content: null, tool_calls: [call('a', 'first')] }, finishReason: 'aborted' }])
    for (const state of [streaming, stopped]) {
      const { model, outcome } = await resume({ tools: set, resume: state })
      expect(model.requests[0]!.messages).toEqual([user])
      expect(outcome).toMatchObject({ finishReason: 'stop', steps: 1 })
    }
  })

  it('reports Stop during the resumed step as the end of the run', async () => {
    const { set } = tools('first')
    const controller = new AbortController()
    controller.abort()
    const state = cutAfter({ role: 'assistant', content: null, tool_calls: [call('a', 'first')] }, [])
    const { outcome, model, events } = await resume({ tools: set, resume: state, signal: controller.signal })
    expect(model.requests).toHaveLength(0)
    expect(outcome.finishReason).toBe('aborted')
    expect(events.find(event => event.type === 'tool-call-error')).toMatchObject({ result: { callId: 'a', status: 'cancelled' } })
  })
})
