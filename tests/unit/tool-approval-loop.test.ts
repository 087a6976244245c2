import { describe, expect, it, vi } from 'vitest'
import type { ModelMessage } from '#shared/types/chat'
import type { ExecutableTool } from '#shared/tools/tool-types'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { DENIED_CONTENT, REFUSED_CONTENT, defaultApprovalPolicy } from '#shared/loop/tool-approval'
import type { ApproveToolCall, ToolApprovalAnswer } from '#shared/loop/tool-approval'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'

const ran: unknown[] = []
const weather: ExecutableTool = {
  definition: {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'], additionalProperties: false },
    },
  },
  handler: (args: { city: string }) => {
    ran.push(args)
    return `Sunny in ${args.city}`
  },
  timeoutMs: 50,
}
const clock: ExecutableTool = {
  definition: { type: 'function', function: { name: 'clock', parameters: { type: 'object', properties: {} } } },
  handler: () => '12:00',
}
const user: ModelMessage = { role: 'user', content: 'Weather in Paris?' }
const askedCall = { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }

function run(policy: Record<string, ToolApprovalPolicy>, approve?: ApproveToolCall, signal?: AbortSignal) {
  ran.length = 0
  const events: LoopEvent[] = []
  const model = createScriptedModel([
    toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }]),
    textStep('Done.'),
  ])
  const result = runChatLoop({
    model, messages: [user], tools: toolSetFromArray([weather, clock]), threadId: 't1', signal,
    toolPolicy: name => policy[name] ?? 'auto',
    approveToolCall: approve,
    onEvent: event => void events.push(event),
  })
  return { model, events, result }
}

const approvals = (events: LoopEvent[]) => events.filter(event => event.type === 'tool-call-approval')

describe('approval before a tool runs', () => {
  it('runs an auto call without asking and reports the decision as auto', async () => {
    const approve = vi.fn()
    const { model, events, result } = run({ get_weather: 'auto' }, approve)
    await result
    expect(approve).not.toHaveBeenCalled()
    expect(events.some(event => event.type === 'tool-call-awaiting-approval')).toBe(false)
    expect(approvals(events)).toMatchObject([{ callId: 'c1', toolName: 'get_weather', decision: 'auto', arguments: '{"city":"Paris"}', askedArguments: '{"city":"Paris"}' }])
    expect(model.requests[1]!.messages).toEqual([
      user,
      { role: 'assistant', content: null, tool_calls: [askedCall] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Sunny in Paris' },
    ])
  })

  it('waits for Allow once, then runs the call as asked; the model gets its result', async () => {
    let answer!: (value: ToolApprovalAnswer) => void
    const approve = vi.fn<ApproveToolCall>(() => new Promise(resolve => (answer = resolve)))
    const { model, events, result } = run({ get_weather: 'ask' }, approve)
    await vi.waitFor(() => expect(approve).toHaveBeenCalledTimes(1))
    expect(events.map(event => event.type)).toContain('tool-call-awaiting-approval')
    expect(events.some(event => event.type === 'tool-call-running')).toBe(false)
    expect(ran).toEqual([])
    answer({ decision: 'allowed-once' })
    expect((await result).finishReason).toBe('stop')
    expect(ran).toEqual([{ city: 'Paris' }])
    const types = events.map(event => event.type)
    expect(types.indexOf('tool-call-awaiting-approval')).toBeLessThan(types.indexOf('tool-call-approval'))
    expect(types.indexOf('tool-call-approval')).toBeLessThan(types.indexOf('tool-call-running'))
    expect(approvals(events)).toMatchObject([{ decision: 'allowed-once' }])
    expect(model.requests[1]!.messages).toEqual([
      user,
      { role: 'assistant', content: null, tool_calls: [askedCall] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Sunny in Paris' },
    ])
  })

  it('runs edited arguments, and the history replayed to the model holds them, not the asked ones', async () => {
    const edited = '{"city":"Lisbon","days":2}'
    const { model, events, result } = run({ get_weather: 'ask' }, async () => ({ decision: 'always-allowed', arguments: edited }))
    const { messages } = await result
    expect(ran).toEqual([{ city: 'Lisbon', days: 2 }])
    const editedCall = { ...askedCall, function: { ...askedCall.function, arguments: edited } }
    expect(model.requests[1]!.messages).toEqual([
      user,
      { role: 'assistant', content: null, tool_calls: [editedCall] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Sunny in Lisbon' },
    ])
    expect(messages[0]).toEqual({ role: 'assistant', content: null, tool_calls: [editedCall] })
    expect(approvals(events)).toMatchObject([{ decision: 'always-allowed', arguments: edited, askedArguments: '{"city":"Paris"}' }])
    const running = events.find(event => event.type === 'tool-call-running')
    expect(running).toMatchObject({ call: { function: { arguments: edited } } })
    const done = events.find(event => event.type === 'tool-call-done')
    expect(done).toMatchObject({ result: { arguments: edited, status: 'done' } })
  })

  it('does not run edited arguments that break the schema: the model hears why', async () => {
    const { model, result } = run({ get_weather: 'ask' }, async () => ({ decision: 'allowed-once', arguments: '{"city":"Oslo","days":0}' }))
    await result
    expect(ran).toEqual([])
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: expect.stringMatching(/days/) })
  })

  it('gives the model a declined result on Deny, with status denied, and never runs the tool', async () => {
    const { model, events, result } = run({ get_weather: 'ask' }, async () => ({ decision: 'denied', arguments: '{"city":"Rome"}' }))
    await result
    expect(ran).toEqual([])
    expect(model.requests[1]!.messages).toEqual([
      user,
      { role: 'assistant', content: null, tool_calls: [askedCall] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: DENIED_CONTENT },
    ])
    expect(approvals(events)).toMatchObject([{ decision: 'denied' }])
    expect(events.find(event => event.type === 'tool-call-error')).toMatchObject({ result: { status: 'denied', error: { kind: 'denied-by-user' } } })
  })

  it('refuses a never call without asking: the model reads that the policy refuses it', async () => {
    const approve = vi.fn()
    const { model, events, result } = run({ get_weather: 'never' }, approve)
    await result
    expect(approve).not.toHaveBeenCalled()
    expect(ran).toEqual([])
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: REFUSED_CONTENT })
    expect(approvals(events)).toMatchObject([{ decision: 'never' }])
    expect(events.find(event => event.type === 'tool-call-error')).toMatchObject({ result: { status: 'denied', error: { kind: 'refused-by-policy' } } })
  })

  it('ends the wait on Stop: the call is cancelled, nothing runs, the model is not asked again', async () => {
    const controller = new AbortController()
    const approve = vi.fn<ApproveToolCall>(() => new Promise(() => {}))
    const { model, events, result } = run({ get_weather: 'ask' }, approve, controller.signal)
    await vi.waitFor(() => expect(approve).toHaveBeenCalled())
    controller.abort()
    const outcome = await result
    expect(outcome.finishReason).toBe('aborted')
    expect(ran).toEqual([])
    expect(model.requests).toHaveLength(1)
    expect(outcome.messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [askedCall] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Cancelled by the user.' },
    ])
    expect(approvals(events)).toEqual([])
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'aborted', steps: 1 })
  })

  it('starts the tool timeout only when the call runs, however long the user takes', async () => {
    vi.useFakeTimers()
    try {
      let answer!: (value: ToolApprovalAnswer) => void
      const { model, result } = run({ get_weather: 'ask' }, () => new Promise(resolve => (answer = resolve)))
      await vi.waitFor(() => expect(answer).toBeDefined())
      await vi.advanceTimersByTimeAsync(60 * 60_000)
      answer({ decision: 'allowed-once' })
      await result
      expect(model.requests[1]!.messages.at(-1)).toMatchObject({ content: 'Sunny in Paris' })
    }
    finally {
      vi.useRealTimers()
    }
  })

  it('runs the auto calls of a step while another call of the same step waits for the user', async () => {
    ran.length = 0
    let answer!: (value: ToolApprovalAnswer) => void
    const events: LoopEvent[] = []
    const model = createScriptedModel([
      toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'w' }, { name: 'clock', id: 'k' }]),
      textStep('Done.'),
    ])
    const result = runChatLoop({
      model, messages: [user], tools: toolSetFromArray([weather, clock]), threadId: 't1',
      toolPolicy: name => (name === 'get_weather' ? 'ask' : 'auto'),
      approveToolCall: () => new Promise(resolve => (answer = resolve)),
      onEvent: event => void events.push(event),
    })
    await vi.waitFor(() => expect(events.some(event => event.type === 'tool-call-done')).toBe(true))
    expect(events.find(event => event.type === 'tool-call-done')).toMatchObject({ result: { callId: 'k' } })
    answer({ decision: 'denied' })
    await result
    // the model's order, whatever finished first
    expect(model.requests[1]!.messages.slice(2).map(message => (message as { tool_call_id: string }).tool_call_id)).toEqual(['w', 'k'])
  })

  it('refuses an ask call when the run has nobody to ask', async () => {
    const { model, result } = run({ get_weather: 'ask' })
    await result
    expect(ran).toEqual([])
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/needs the user's approval/) })
  })
})

describe('defaultApprovalPolicy', () => {
  it('asks first for tools that act outside the app, unless the tool names its own policy', () => {
    expect(defaultApprovalPolicy({})).toBe('auto')
    expect(defaultApprovalPolicy({ actsOutsideApp: true })).toBe('ask')
    expect(defaultApprovalPolicy({ actsOutsideApp: true, approval: 'auto' })).toBe('auto')
    expect(defaultApprovalPolicy({ approval: 'never' })).toBe('never')
    expect(defaultApprovalPolicy({ approval: 'sometimes' as never, actsOutsideApp: true })).toBe('ask')
  })
})
