import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { ChatModel } from '#shared/loop/chat-model'
import { callsOfStep, createConversationState, foldLoopEvent, foldLoopEvents, isStepSettled } from '#shared/loop/conversation-state'
import type { ConversationState } from '#shared/loop/conversation-state'
import type { LoopEvent } from '#shared/loop/loop-event'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import type { ApproveToolCall, ToolPolicyLookup } from '#shared/loop/tool-approval'
import { readChatStream } from '#shared/stream/read-chat-stream'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool, ToolHandler } from '#shared/tools/tool-types'
import type { ModelMessage } from '#shared/types/chat'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import type { ScriptedStep } from './helpers/scripted-model'

function tool(name: string, handler: ToolHandler): ExecutableTool {
  return { definition: { type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: {} } } }, handler }
}

const user: ModelMessage = { role: 'user', content: 'Weather in Paris and Oslo?' }
const tools = toolSetFromArray([
  tool('get_weather', (args, context) => {
    context.status('asking the sky')
    return `Sunny in ${String(args.city)}`
  }),
  tool('search', args => `Found ${String(args.q)}`),
])

interface Run { events: LoopEvent[], messages: ModelMessage[] }

async function run(steps: ScriptedStep[] | ChatModel, options: { toolPolicy?: ToolPolicyLookup, approveToolCall?: ApproveToolCall, signal?: AbortSignal } = {}): Promise<Run> {
  const events: LoopEvent[] = []
  const model = Array.isArray(steps) ? createScriptedModel(steps) : steps
  const result = await runChatLoop({ model, messages: [user], tools, threadId: 't', toolCallMode: 'native', ...options, onEvent: event => void events.push(event) })
  return { events, messages: result.messages }
}

const twoCalls = (): ScriptedStep[] => [
  toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_a' }, { name: 'search', args: { q: 'Oslo' }, id: 'call_b' }], 'Let me look. '),
  textStep(['Paris is ', 'sunny.']),
]

/** The part of a state both a server job and a tab know: the history, the last step and its calls, the end. */
function shared(state: ConversationState) {
  return { messages: state.messages, step: state.step, calls: state.step ? callsOfStep(state, state.step.number) : [], end: state.end }
}

describe('foldLoopEvents: the loop\'s own runs', () => {
  it('holds the history the loop added, in the model\'s order, and how the run ended', async () => {
    const { events, messages } = await run(twoCalls())
    const state = foldLoopEvents(events, createConversationState({ messages: [user] }))
    expect(state.messages).toEqual([user, ...messages])
    expect(state.end).toEqual({ finishReason: 'stop', steps: 2 })
    expect(state.step).toMatchObject({ number: 2, text: 'Paris is sunny.', finishReason: 'stop', message: { role: 'assistant', content: 'Paris is sunny.' } })
    expect(callsOfStep(state, 1).map(call => [call.callId, call.status, call.decision])).toEqual([['call_a', 'done', 'auto'], ['call_b', 'done', 'auto']])
    expect(state.calls.call_a!.statusText).toBe('asking the sky')
  })

  it('puts each result after its call whatever order the calls ended in', () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'search', arguments: '{}' } })
    const result = (id: string) => ({ callId: id, name: 'search', arguments: '{}', status: 'done' as const, content: id, fullContent: id, truncated: false, startedAt: 0, finishedAt: 0 })
    const state = foldLoopEvents([
      { type: 'step-start', step: 1 },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: null, tool_calls: [call('x'), call('y'), call('z')] }, finishReason: 'tool_calls' },
      { type: 'tool-call-done', step: 1, result: result('z') },
      { type: 'tool-call-done', step: 1, result: result('x') },
      { type: 'tool-call-done', step: 1, result: result('y') },
    ])
    expect(state.messages.map(message => (message.role === 'tool' ? message.tool_call_id : message.role))).toEqual(['assistant', 'x', 'y', 'z'])
    expect(isStepSettled(state)).toBe(true)
  })

  it('keeps the arguments the user edited at approval in the history and on the call', async () => {
    const { events, messages } = await run(twoCalls(), {
      toolPolicy: name => (name === 'search' ? 'ask' : 'auto'),
      approveToolCall: async () => ({ decision: 'allowed-once', arguments: '{"q":"Bergen"}' }),
    })
    const state = foldLoopEvents(events, createConversationState({ messages: [user] }))
    expect(state.messages).toEqual([user, ...messages])
    expect(state.calls.call_b).toMatchObject({ status: 'done', decision: 'allowed-once', call: { function: { arguments: '{"q":"Bergen"}' } }, result: { content: 'Found Bergen' } })
  })

  it('records a denial, a call waiting for the user and a Stop while it waits', async () => {
    const controller = new AbortController()
    const { events, messages } = await run([twoCalls()[0]!], {
      toolPolicy: name => (name === 'search' ? 'ask' : 'never'),
      signal: controller.signal,
      approveToolCall: () => {
        controller.abort()
        return new Promise(() => {})
      },
    })
    const waiting = events.findIndex(event => event.type === 'tool-call-awaiting-approval')
    expect(foldLoopEvents(events.slice(0, waiting + 1)).calls.call_b!.status).toBe('awaiting-approval')
    const state = foldLoopEvents(events, createConversationState({ messages: [user] }))
    expect(state.messages).toEqual([user, ...messages])
    expect(callsOfStep(state, 1).map(call => call.status)).toEqual(['denied', 'cancelled'])
    expect(state.end).toEqual({ finishReason: 'aborted', steps: 1 })
  })

  it('keeps the notices of the run with their step', async () => {
    const same = { name: 'search', args: { q: 'x' } }
    const { events } = await run([toolCallStep([same]), toolCallStep([same]), toolCallStep([same]), textStep('done')])
    expect(foldLoopEvents(events).notices).toEqual([expect.objectContaining({ kind: 'repeated-call', step: 3 })])
  })
})

describe('foldLoopEvents: a step cut at every point and started again', () => {
  it('ends in the state of the run that was never cut, wherever the cut fell', async () => {
    const { events } = await run(twoCalls())
    const whole = foldLoopEvents(events)
    const stepTwo = events.findIndex(event => event.type === 'step-start' && event.step === 2)
    for (const [from, to] of [[0, stepTwo], [stepTwo, events.length - 1]] as const) {
      for (let cut = from + 1; cut <= to; cut++) {
        // A takeover asks the step again: its events come again from its step-start, after what the cut left.
        const resumed = foldLoopEvents(events.slice(from), foldLoopEvents(events.slice(0, cut)))
        expect(shared(resumed), `cut after event ${cut - 1} (${events[cut - 1]!.type})`).toEqual(shared(whole))
        expect(resumed.notices).toEqual(whole.notices)
      }
    }
  })

  it('at each cut, holds exactly what streamed and which calls ended', async () => {
    const { events } = await run([twoCalls()[0]!, textStep('ok')])
    const stepOne = events.slice(0, events.findIndex(event => event.type === 'step-start' && event.step === 2))
    for (let cut = 1; cut <= stepOne.length; cut++) {
      const seen = stepOne.slice(0, cut)
      const state = foldLoopEvents(seen)
      const text = seen.flatMap(event => (event.type === 'text-delta' ? [event.text] : [])).join('')
      const finished = seen.some(event => event.type === 'step-finish')
      const ended = new Set(seen.flatMap(event => (event.type === 'tool-call-done' ? [event.result.callId] : [])))
      expect(state.step).toMatchObject({ number: 1, text })
      expect(state.step!.message !== undefined).toBe(finished)
      expect(state.messages.filter(message => message.role === 'tool').map(message => (message as { tool_call_id: string }).tool_call_id).sort()).toEqual([...ended].sort())
      expect(isStepSettled(state)).toBe(finished && ended.size === 2)
    }
  })

  it('drops the later steps too when an earlier one starts again', () => {
    const state = foldLoopEvents([
      { type: 'step-start', step: 1 },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: 'one' }, finishReason: 'stop' },
      { type: 'step-start', step: 2 },
      { type: 'notice', step: 2, notice: { kind: 'step-cap', message: 'cap' } },
      { type: 'step-start', step: 1 },
    ])
    expect(state.messages).toEqual([])
    expect(state.notices).toEqual([])
    expect(state.step).toEqual({ number: 1, text: '', reasoning: '' })
  })

  it('changes nothing it does not have to: events of another step leave the open step as it is', () => {
    const state = foldLoopEvents([{ type: 'step-start', step: 2 }, { type: 'text-delta', step: 2, text: 'a' }])
    expect(foldLoopEvent(state, { type: 'text-delta', step: 1, text: 'late' })).toBe(state)
  })
})

describe('foldLoopEvents: recorded provider streams', () => {
  const corpus = resolve(process.cwd(), 'tests/fixtures/corpora/sse-streams')
  const streams = (JSON.parse(readFileSync(resolve(corpus, 'index.json'), 'utf8')).streams as Array<{ file: string, features: string[] }>)
    .filter(entry => entry.features.includes('tool_calls'))

  it.each(streams.map(entry => [entry.file]))('%s: the fold holds the history the loop returned', async (file) => {
    // The recorded calls name tools this run does not offer: their results are errors, which is fine here.
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const bytes = new Uint8Array(readFileSync(resolve(corpus, file)))
    let requests = 0
    const model: ChatModel = {
      stream: () => {
        requests++
        return requests === 1 ? readChatStream((async function* () { yield bytes })()) : createScriptedModel([textStep('done')]).stream({ messages: [], signal: new AbortController().signal })
      },
    }
    const { events, messages } = await run(model)
    const state = foldLoopEvents(events, createConversationState({ messages: [user] }))
    expect(state.messages).toEqual([user, ...messages])
    expect(state.end?.finishReason).toBeDefined()
    vi.restoreAllMocks()
  })
})
