import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ModelMessage } from '#shared/types/chat'
import type { ExecutableTool, ToolHandler } from '#shared/tools/tool-types'
import type { LoopNotice } from '#shared/loop/loop-types'
import type { LoopEvent } from '#shared/loop/loop-event'
import { ProviderError } from '#shared/errors'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { describeToolsForTextMode } from '#shared/tools/text-tool-calls/index'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'

function tool(name: string, handler: ToolHandler, properties: Record<string, unknown> = {}): ExecutableTool {
  return { definition: { type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties } } }, handler }
}

const weather = tool('get_weather', args => `Sunny in ${args.city}`, { city: { type: 'string' } })
const user: ModelMessage = { role: 'user', content: 'Weather in Paris?' }

afterEach(() => vi.restoreAllMocks())

/** The notices among a run's events. */
function noticesIn(events: LoopEvent[]): LoopNotice[] {
  return events.flatMap(event => (event.type === 'notice' ? [event.notice] : []))
}

/** The results among a run's events, in the order they were reported. */
function resultsIn(events: LoopEvent[]) {
  return events.flatMap(event => (event.type === 'tool-call-done' || event.type === 'tool-call-error' ? [event.result] : []))
}

describe('runChatLoop: continuation', () => {
  it('runs the called tool and sends the result back until the model answers', async () => {
    const model = createScriptedModel([
      toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' }]),
      textStep(['It is ', 'sunny.']),
    ])
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1' })

    const assistant = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }
    const toolMessage = { role: 'tool', tool_call_id: 'call_1', name: 'get_weather', content: 'Sunny in Paris' }
    expect(model.requests).toHaveLength(2)
    expect(model.requests[1]!.messages).toEqual([user, assistant, toolMessage])
    expect(result).toEqual({ finishReason: 'stop', steps: 2, messages: [assistant, toolMessage, { role: 'assistant', content: 'It is sunny.' }] })
  })

  it('offers the tools with tool_choice auto', async () => {
    const model = createScriptedModel([textStep('hi')])
    await runChatLoop({ model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1' })
    expect(model.requests[0]!.tools).toEqual([weather.definition])
    expect(model.requests[0]!.toolChoice).toBe('auto')
  })

  it('omits tools and toolChoice when no tool is enabled', async () => {
    const model = createScriptedModel([textStep('hi')])
    await runChatLoop({ model, messages: [user], tools: toolSetFromArray([]), threadId: 't1' })
    expect(model.requests[0]).not.toHaveProperty('tools')
    expect(model.requests[0]).not.toHaveProperty('toolChoice')
  })

  it('reports each step in order and finalises the assistant message once, before its tools run', async () => {
    const order: string[] = []
    const describe = (event: LoopEvent): string => {
      switch (event.type) {
        case 'step-start': return `step ${event.step}`
        case 'text-delta': return `text ${event.text}`
        case 'tool-call-queued': return `queued ${event.toolName} ${event.callId}`
        case 'step-finish': return `assistant ${event.message.content} ${event.message.tool_calls?.length ?? 0} ${event.finishReason}`
        case 'tool-call-approval': return `approval ${event.callId} ${event.decision}`
        case 'tool-call-running': return `running ${event.call.id}`
        case 'tool-call-status': return `status ${event.callId} ${event.text}`
        case 'tool-call-done': case 'tool-call-error': return `result ${event.result.callId} ${event.result.status}`
        case 'finish': return `finish ${event.finishReason} ${event.steps}`
        default: return event.type
      }
    }
    const model = createScriptedModel([
      toolCallStep([{ name: 'get_weather', args: { city: 'Oslo' }, id: 'c1' }], 'Let me check. '),
      textStep('Cold.'),
    ])
    await runChatLoop({
      model,
      messages: [user],
      tools: toolSetFromArray([tool('get_weather', (_args, context) => {
        context.status('asking the sky')
        return 'cold'
      })]),
      threadId: 't1',
      onEvent: event => void order.push(describe(event)),
    })
    expect(order).toEqual([
      'step 1', 'text Let me check. ', 'queued get_weather c1', 'assistant Let me check.  1 tool_calls',
      'approval c1 auto', 'running c1', 'status c1 asking the sky', 'result c1 done',
      'step 2', 'text Cold.', 'assistant Cold. 0 stop', 'finish stop 2',
    ])
  })

  it('appends the results of concurrent calls in the model order even when they finish in reverse', async () => {
    let startFirst!: () => void
    let startSecond!: () => void
    const firstStarted = new Promise<void>(resolve => (startFirst = resolve))
    const secondStarted = new Promise<void>(resolve => (startSecond = resolve))
    const tools = toolSetFromArray([
      tool('first', async () => {
        startFirst()
        await secondStarted // deadlocks if the calls ran one after the other
        await new Promise(resolve => setTimeout(resolve, 20))
        return 'one'
      }),
      tool('second', async () => {
        startSecond()
        await firstStarted
        return 'two'
      }),
    ])
    const model = createScriptedModel([toolCallStep([{ name: 'first', id: 'a' }, { name: 'second', id: 'b' }]), textStep('done')])
    const finished: string[] = []
    await runChatLoop({ model, messages: [user], tools, threadId: 't1', onEvent: event => void finished.push(...resultsIn([event]).map(result => result.callId)) })
    expect(finished).toEqual(['b', 'a'])
    expect(model.requests[1]!.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', name: 'first', content: 'one' },
      { role: 'tool', tool_call_id: 'b', name: 'second', content: 'two' },
    ])
  })

  it('sends tool failures back to the model and goes on', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const model = createScriptedModel([toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }]), textStep('Sorry.')])
    const failing = tool('get_weather', () => {
      throw new Error('Network down')
    })
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([failing]), threadId: 't1' })
    expect(model.requests[1]!.messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Error: tool "get_weather" failed: Network down' })
    expect(result.finishReason).toBe('stop')
  })
})

describe('runChatLoop: large results', () => {
  it('sends a cut result to the model, reports the whole one and tells the user', async () => {
    const long = 'y'.repeat(50)
    const model = createScriptedModel([toolCallStep([{ name: 'dump', id: 'c1' }]), textStep('ok')])
    const events: LoopEvent[] = []
    await runChatLoop({
      model, messages: [user], tools: toolSetFromArray([tool('dump', () => long)]), threadId: 't1', maxResultChars: 10,
      onEvent: event => void events.push(event),
    })
    const notices = noticesIn(events)
    const stored = resultsIn(events).map(result => result.fullContent)
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'dump', content: `${'y'.repeat(10)}\n\n[Result truncated: showing the first 10 of 50 characters.]\n[Call read_tool_result with call_id "c1" and offset 10 to read the rest.]` })
    expect(stored).toEqual([long])
    expect(notices.map(notice => notice.kind)).toEqual(['truncated-result'])
  })
})

describe('runChatLoop: step cap', () => {
  it('stops at maxSteps with a notice, after giving the last calls their results', async () => {
    const handler = vi.fn((args: { n: number }) => `result ${args.n}`)
    const model = createScriptedModel([1, 2, 3].map(n => toolCallStep([{ name: 'count', args: { n }, id: `c${n}` }])))
    const events: LoopEvent[] = []
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([tool('count', handler)]), threadId: 't1', maxSteps: 3, onEvent: event => void events.push(event) })
    const notices = noticesIn(events)
    expect(result.finishReason).toBe('step-cap')
    expect(result.steps).toBe(3)
    expect(model.requests).toHaveLength(3)
    expect(handler).toHaveBeenCalledTimes(3)
    expect(result.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c3', name: 'count', content: 'result 3' })
    expect(notices).toEqual([{ kind: 'step-cap', message: 'Stopped after 3 steps. Press Continue to let the model go on.', code: 'loop.stepCap', params: { steps: 3 } }])
  })

  it('caps at 10 steps by default', async () => {
    const model = createScriptedModel(Array.from({ length: 11 }, (_, n) => toolCallStep([{ name: 'count', args: { n } }])))
    const events: LoopEvent[] = []
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([tool('count', () => 'ok')]), threadId: 't1', onEvent: event => void events.push(event) })
    const notices = noticesIn(events)
    expect(result).toMatchObject({ finishReason: 'step-cap', steps: 10 })
    expect(notices[0]!.message).toBe('Stopped after 10 steps. Press Continue to let the model go on.')
  })
})

describe('runChatLoop: repeated calls', () => {
  const skippedContent = 'Error: this exact call was already made 2 times in a row with the same arguments; not running it again. Use the results above or try something different.'

  it('does not run the same call a third time in a row, and tells the model and the user', async () => {
    const handler = vi.fn(() => 'same answer')
    const model = createScriptedModel([
      toolCallStep([{ name: 'search', args: { q: 'x', page: 1 }, id: 'c1' }]),
      toolCallStep([{ name: 'search', rawArguments: '{ "page": 1, "q": "x" }', id: 'c2' }]),
      toolCallStep([{ name: 'search', args: { q: 'x', page: 1 }, id: 'c3' }]),
      textStep('Giving up.'),
    ])
    const events: LoopEvent[] = []
    const result = await runChatLoop({
      model,
      messages: [user],
      tools: toolSetFromArray([tool('search', handler)]),
      threadId: 't1',
      onEvent: event => void events.push(event),
    })
    const notices = noticesIn(events)
    const results = resultsIn(events).map(toolResult => toolResult.status)
    expect(handler).toHaveBeenCalledTimes(2)
    expect(results).toEqual(['done', 'done', 'skipped'])
    expect(model.requests[3]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c3', name: 'search', content: skippedContent })
    expect(notices.map(notice => notice.kind)).toEqual(['repeated-call'])
    expect(result.finishReason).toBe('stop')
  })

  it('runs the call again when its arguments change', async () => {
    const handler = vi.fn(() => 'ok')
    const model = createScriptedModel([
      toolCallStep([{ name: 'search', args: { q: 'x' } }]),
      toolCallStep([{ name: 'search', args: { q: 'x' } }]),
      toolCallStep([{ name: 'search', args: { q: 'y' } }]),
      textStep('ok'),
    ])
    await runChatLoop({ model, messages: [user], tools: toolSetFromArray([tool('search', handler)]), threadId: 't1' })
    expect(handler).toHaveBeenCalledTimes(3)
  })

  it('counts the calls made since the last user message, so Continue does not reset the count', async () => {
    const handler = vi.fn(() => 'ok')
    const earlier: ModelMessage[] = [user]
    for (const id of ['c1', 'c2']) {
      earlier.push(
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }] },
        { role: 'tool', tool_call_id: id, name: 'search', content: 'ok' },
      )
    }
    const model = createScriptedModel([toolCallStep([{ name: 'search', args: { q: 'x' } }]), textStep('ok')])
    await runChatLoop({ model, messages: earlier, tools: toolSetFromArray([tool('search', handler)]), threadId: 't1' })
    expect(handler).not.toHaveBeenCalled()

    const newQuestion = createScriptedModel([toolCallStep([{ name: 'search', args: { q: 'x' } }]), textStep('ok')])
    await runChatLoop({ model: newQuestion, messages: [...earlier, { role: 'user', content: 'again please' }], tools: toolSetFromArray([tool('search', handler)]), threadId: 't1' })
    expect(handler).toHaveBeenCalledOnce()
  })
})

describe('runChatLoop: stop and failures', () => {
  it('cancels a running tool on Stop, gives it a cancelled result and asks the model nothing more', async () => {
    const controller = new AbortController()
    let toolSignal: AbortSignal | undefined
    const slow = tool('slow', (_args, context) => {
      toolSignal = context.signal
      context.status('working')
      return new Promise(() => {})
    })
    const model = createScriptedModel([toolCallStep([{ name: 'slow', id: 'c1' }], 'Working. '), textStep('never')])
    const assistantMessages: unknown[] = []
    const result = await runChatLoop({
      model,
      messages: [user],
      tools: toolSetFromArray([slow]),
      threadId: 't1',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'tool-call-status') controller.abort()
        if (event.type === 'step-finish') assistantMessages.push(event.message)
      },
    })
    expect(result.finishReason).toBe('aborted')
    expect(toolSignal?.aborted).toBe(true)
    expect(model.requests).toHaveLength(1)
    expect(assistantMessages).toHaveLength(1)
    expect(result.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'slow', content: 'Cancelled by the user.' })
  })

  it('keeps the partial text when Stop is pressed mid-stream, reported once', async () => {
    const controller = new AbortController()
    const model = createScriptedModel([textStep(['Once ', 'upon ', 'a ', 'time'])], { delayMs: 5 })
    const assistantMessages: unknown[] = []
    const result = await runChatLoop({
      model,
      messages: [user],
      tools: toolSetFromArray([weather]),
      threadId: 't1',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text-delta' && event.text === 'upon ') controller.abort()
        if (event.type === 'step-finish') assistantMessages.push([event.message, event.finishReason])
      },
    })
    expect(result.finishReason).toBe('aborted')
    expect(assistantMessages).toEqual([[{ role: 'assistant', content: 'Once upon ' }, 'aborted']])
    expect(result.messages).toEqual([{ role: 'assistant', content: 'Once upon ' }])
  })

  it('gives calls streamed before Stop cancelled results so the history stays valid', async () => {
    const controller = new AbortController()
    const model = createScriptedModel([[
      { type: 'tool-call-delta', index: 0, id: 'c1', name: 'get_weather', argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'finish', reason: 'tool_calls' },
    ]], { delayMs: 5 })
    const result = await runChatLoop({
      model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1', signal: controller.signal,
      onEvent: event => void (event.type === 'tool-call-queued' && controller.abort()),
    })
    expect(result.finishReason).toBe('aborted')
    expect(result.messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Cancelled by the user.' },
    ])
  })

  it('ends with the provider error from inside the stream, keeping the text so far', async () => {
    const error = new ProviderError('The provider broke off the reply.', { kind: 'stream' })
    const model = createScriptedModel([[{ type: 'text-delta', text: 'Half an ans' }, { type: 'error', error }]])
    const events: LoopEvent[] = []
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1', onEvent: event => void events.push(event) })
    expect(result).toEqual({ finishReason: 'error', steps: 1, error, messages: [{ role: 'assistant', content: 'Half an ans' }] })
    const stepFinishes = events.filter(event => event.type === 'step-finish')
    expect(stepFinishes).toHaveLength(1)
    expect(stepFinishes[0]).toMatchObject({ finishReason: 'error' })
    expect(events.at(-1)).toEqual({ type: 'fail', steps: 1, error: { kind: 'stream', message: 'The provider broke off the reply.', retryable: true, providerMessage: undefined, retryAfterMs: undefined } })
  })

  it('ends with a thrown ProviderError (for example on step 2) without losing step 1', async () => {
    const error = new ProviderError('Rate limited', { kind: 'rate-limit', status: 429 })
    const model = createScriptedModel([
      toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }]),
      () => (async function* () {
        yield { type: 'text-delta' as const, text: 'It' }
        throw error
      })(),
    ])
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1' })
    expect(result.finishReason).toBe('error')
    expect(result.error).toBe(error)
    expect(result.messages.map(message => message.role)).toEqual(['assistant', 'tool', 'assistant'])
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'It' })
  })

  it('does not run calls streamed before a provider error, but answers them so the history stays valid', async () => {
    const handler = vi.fn(() => 'ok')
    const error = new ProviderError('Upstream overloaded', { kind: 'stream' })
    const model = createScriptedModel([[
      { type: 'tool-call-delta', index: 0, id: 'c1', name: 'noop', argumentsDelta: '{}' },
      { type: 'error', error },
    ]])
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([tool('noop', handler)]), threadId: 't1' })
    expect(handler).not.toHaveBeenCalled()
    expect(result.finishReason).toBe('error')
    expect(result.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'noop', content: 'Not run: the reply was interrupted by an error.' })
  })

  it('reports a length finish without tool calls as length', async () => {
    const model = createScriptedModel([[{ type: 'text-delta', text: 'cut' }, { type: 'finish', reason: 'length' }]])
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([]), threadId: 't1' })
    expect(result.finishReason).toBe('length')
  })

  it('runs tool calls even when the finish reason is missing or unusual', async () => {
    const handler = vi.fn(() => 'ok')
    const model = createScriptedModel([
      [{ type: 'tool-call-delta', index: 0, id: 'c1', name: 'noop', argumentsDelta: '{}' }, { type: 'finish', reason: 'stop' }],
      [{ type: 'tool-call-delta', index: 0, id: 'c2', name: 'noop', argumentsDelta: '' }],
      textStep('done'),
    ])
    await runChatLoop({ model, messages: [user], tools: toolSetFromArray([tool('noop', handler)]), threadId: 't1' })
    expect(handler).toHaveBeenCalledTimes(2)
  })
})

describe('runChatLoop: tool calls written as text', () => {
  const written = 'Checking.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'

  it('in text mode describes the tools in a system message and parses calls from the text', async () => {
    const model = createScriptedModel([textStep([written.slice(0, 20), written.slice(20)]), textStep('Sunny.')])
    const visible: string[] = []
    const result = await runChatLoop({
      model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1', toolCallMode: 'text',
      onEvent: event => void (event.type === 'text-delta' && visible.push(event.text)),
    })
    expect(model.requests[0]).not.toHaveProperty('tools')
    expect(model.requests[0]).not.toHaveProperty('toolChoice')
    expect(model.requests[0]!.messages).toEqual([{ role: 'system', content: describeToolsForTextMode([weather.definition]) }, user])
    expect(visible.join('')).toBe('Checking.Sunny.')
    const [assistant, toolMessage] = result.messages
    expect(assistant).toMatchObject({ role: 'assistant', content: 'Checking.', tool_calls: [{ function: { name: 'get_weather', arguments: expect.stringMatching(/"city":\s*"Paris"/) } }] })
    expect(toolMessage).toMatchObject({ role: 'tool', name: 'get_weather', content: 'Sunny in Paris' })
    expect(model.requests[1]!.messages.slice(1)).toEqual([user, assistant, toolMessage])
  })

  it('merges the tool description into an existing system message', async () => {
    const model = createScriptedModel([textStep('ok')])
    await runChatLoop({ model, messages: [{ role: 'system', content: 'Be brief.' }, user], tools: toolSetFromArray([weather]), threadId: 't1', toolCallMode: 'text' })
    expect(model.requests[0]!.messages[0]).toEqual({ role: 'system', content: `${describeToolsForTextMode([weather.definition])}\n\nBe brief.` })
  })

  it('in auto mode runs calls written as text and tells the user once', async () => {
    const model = createScriptedModel([textStep(written), textStep(written.replace('Paris', 'Rome')), textStep('Both sunny.')])
    const events: LoopEvent[] = []
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1', onEvent: event => void events.push(event) })
    const notices = noticesIn(events)
    expect(model.requests[0]!.tools).toEqual([weather.definition])
    expect(notices.map(notice => notice.kind)).toEqual(['text-tool-calls'])
    expect(result.messages.filter(message => message.role === 'tool').map(message => message.content)).toEqual(['Sunny in Paris', 'Sunny in Rome'])
  })

  it('in native mode leaves text alone', async () => {
    const model = createScriptedModel([textStep(written)])
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1', toolCallMode: 'native' })
    expect(result.messages).toEqual([{ role: 'assistant', content: written }])
  })

  it('ignores calls of tools that were not offered', async () => {
    const text = '<tool_call>{"name": "delete_files", "arguments": {}}</tool_call>'
    const model = createScriptedModel([textStep(text)])
    const result = await runChatLoop({ model, messages: [user], tools: toolSetFromArray([weather]), threadId: 't1' })
    expect(result.finishReason).toBe('stop')
    expect(result.messages).toHaveLength(1)
    expect(result.messages[0]).not.toHaveProperty('tool_calls')
  })
})

describe('runChatLoop: reasoning written into the content', () => {
  it('moves a leading <think> block to reasoning, keeps it out of the history, and still finds text tool calls after it', async () => {
    const echo: ExecutableTool = {
      definition: { type: 'function', function: { name: 'echo', parameters: { type: 'object', properties: { text: { type: 'string' } } } } },
      handler: ({ text }: { text: string }) => text,
    }
    const model = createScriptedModel([
      textStep(['<thi', 'nk>I should call echo.</th', 'ink>\n\n<tool_call>{"name": "echo", "arguments": {"text": "hi"}}</tool_call>']),
      textStep(['<think>Got it.</think>', 'Echoed: hi']),
    ])
    const reasoning: string[] = []
    const text: string[] = []
    const result = await runChatLoop({
      model,
      messages: [{ role: 'user', content: 'echo hi' }],
      tools: toolSetFromArray([echo]),
      threadId: 't',
      toolCallMode: 'auto',
      onEvent: (event) => {
        if (event.type === 'reasoning-delta') reasoning.push(event.text)
        if (event.type === 'text-delta') text.push(event.text)
      },
    })
    expect(result.finishReason).toBe('stop')
    expect(reasoning.join('')).toBe('I should call echo.Got it.')
    expect(text.join('')).toBe('Echoed: hi')
    const history = model.requests[1]!.messages
    expect(history[1]).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ function: { name: 'echo', arguments: '{"text":"hi"}' } }] })
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'Echoed: hi' })
  })
})
