import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolCall } from '#shared/types/chat'
import type { ExecutableTool, ToolExecutionContext, ToolHandler, ToolSet } from '#shared/tools/tool-types'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { createToolErrorListener } from '~/utils/chat/registry/tool-error-listener'
import { toolCallEndEvent } from '#shared/loop/loop-event'

const weatherParameters = {
  type: 'object' as const,
  properties: { city: { type: 'string' } },
  required: ['city'],
}

function tool(name: string, handler: ToolHandler, extra: Partial<ExecutableTool> = {}): ExecutableTool {
  return {
    definition: { type: 'function', function: { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } } },
    handler,
    ...extra,
  }
}

function weatherTool(handler: ToolHandler, extra: Partial<ExecutableTool> = {}): ExecutableTool {
  const base = tool('get_weather', handler, extra)
  return { ...base, definition: { type: 'function', function: { name: 'get_weather', parameters: weatherParameters } } }
}

function call(name: string, args: unknown = {}, id = `call_${name}`): ToolCall {
  return { id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }
}

const options = { threadId: 'thread-1' }

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/** Runs the calls and hands their results to the registry's `lastError` listener, as a loop run does. */
async function executeAndFollow(calls: ToolCall[], tools: ToolSet) {
  const setLastError = vi.fn()
  const listener = createToolErrorListener({ setLastError })
  const results = await executeToolCalls(calls, tools, options)
  for (const result of results) listener(toolCallEndEvent(1, result))
  return { results, setLastError }
}

function silenceWarnings() {
  return vi.spyOn(console, 'warn').mockImplementation(() => {})
}

describe('executeToolCalls: results', () => {
  it('passes parsed arguments and a context to the handler and returns its text', async () => {
    const contexts: ToolExecutionContext[] = []
    const tools = toolSetFromArray([weatherTool((args, context) => {
      contexts.push(context)
      return `Sunny in ${args.city}`
    })])
    const [result] = await executeToolCalls([call('get_weather', { city: 'Paris' }, 'c1')], tools, options)
    expect(result).toMatchObject({ callId: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'done', content: 'Sunny in Paris', fullContent: 'Sunny in Paris', truncated: false })
    expect(result!.finishedAt).toBeGreaterThanOrEqual(result!.startedAt)
    expect(contexts[0]).toMatchObject({ threadId: 'thread-1', callId: 'c1' })
    expect(contexts[0]!.signal.aborted).toBe(false)
  })

  it('stringifies plain JSON return values', async () => {
    const tools = toolSetFromArray([
      tool('object', () => ({ temp: 21, ok: true })),
      tool('number', async () => 42),
      tool('null', () => null),
    ])
    const results = await executeToolCalls([call('object'), call('number'), call('null')], tools, options)
    expect(results.map(result => result.content)).toEqual(['{"temp":21,"ok":true}', '42', 'null'])
  })

  it('reads empty arguments as an empty object', async () => {
    const handler = vi.fn(() => 'ok')
    await executeToolCalls([call('noop', '')], toolSetFromArray([tool('noop', handler)]), options)
    expect(handler).toHaveBeenCalledWith({}, expect.anything())
  })

  it('cuts long results for the model with a note and keeps the whole text', async () => {
    const long = 'x'.repeat(40_000)
    const [result] = await executeToolCalls([call('big')], toolSetFromArray([tool('big', () => long)]), options)
    expect(result!.truncated).toBe(true)
    expect(result!.fullContent).toBe(long)
    expect(result!.content).toBe(`${'x'.repeat(32_768)}\n\n[Result truncated: showing the first 32768 of 40000 characters.]\n[Call read_tool_result with call_id "call_big" and offset 32768 to read the rest.]`)
  })

  it('honours maxResultChars', async () => {
    const [result] = await executeToolCalls([call('big')], toolSetFromArray([tool('big', () => 'abcdef')]), { ...options, maxResultChars: 4 })
    expect(result!.content).toBe('abcd\n\n[Result truncated: showing the first 4 of 6 characters.]\n[Call read_tool_result with call_id "call_big" and offset 4 to read the rest.]')
  })

  it('forwards status updates and reports start and result', async () => {
    const onStart = vi.fn()
    const onStatus = vi.fn()
    const onResult = vi.fn()
    const tools = toolSetFromArray([tool('slow', (_args, context) => {
      context.status('fetching')
      return 'done'
    })])
    const [result] = await executeToolCalls([call('slow', {}, 'c9')], tools, { ...options, onStart, onStatus, onResult })
    expect(onStart).toHaveBeenCalledWith(call('slow', {}, 'c9'))
    expect(onStatus).toHaveBeenCalledWith('c9', 'fetching')
    expect(onResult).toHaveBeenCalledWith(result)
  })

  it('runs the calls of a turn concurrently and returns results in the model order', async () => {
    // Each handler waits for the other to start: run one after the other, this would never finish.
    let startFirst!: () => void
    let startSecond!: () => void
    const firstStarted = new Promise<void>(resolve => (startFirst = resolve))
    const secondStarted = new Promise<void>(resolve => (startSecond = resolve))
    const finished: string[] = []
    const tools = toolSetFromArray([
      tool('first', async () => {
        startFirst()
        await secondStarted
        await new Promise(resolve => setTimeout(resolve, 20))
        finished.push('first')
        return 'one'
      }),
      tool('second', async () => {
        startSecond()
        await firstStarted
        finished.push('second')
        return 'two'
      }),
    ])
    const results = await executeToolCalls([call('first'), call('second')], tools, options)
    expect(finished).toEqual(['second', 'first'])
    expect(results.map(result => result.content)).toEqual(['one', 'two'])
  })

  it('clears the tool\'s lastError on success', async () => {
    const { setLastError } = await executeAndFollow([call('ok')], toolSetFromArray([tool('ok', () => 'fine')]))
    expect(setLastError).toHaveBeenCalledWith('ok', null)
  })
})

describe('executeToolCalls: fault matrix', () => {
  it('turns a throwing handler into an error result and reports it', async () => {
    const warn = silenceWarnings()
    const tools = toolSetFromArray([weatherTool(() => {
      throw new Error('Network down')
    })])
    const { results: [result], setLastError } = await executeAndFollow([call('get_weather', { city: 'Paris' })], tools)
    expect(result).toMatchObject({ status: 'error', content: 'Error: tool "get_weather" failed: Network down', error: { kind: 'execution' } })
    expect(setLastError).toHaveBeenCalledWith('get_weather', 'tool "get_weather" failed: Network down')
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('turns a rejected promise into an error result', async () => {
    silenceWarnings()
    const tools = toolSetFromArray([tool('flaky', () => Promise.reject(new Error('HTTP 503')))])
    const [result] = await executeToolCalls([call('flaky')], tools, options)
    expect(result).toMatchObject({ status: 'error', content: 'Error: tool "flaky" failed: HTTP 503' })
  })

  it('describes thrown non-errors', async () => {
    silenceWarnings()
    const tools = toolSetFromArray([tool('odd', () => { throw 'plain string' })])
    const [result] = await executeToolCalls([call('odd')], tools, options)
    expect(result!.content).toBe('Error: tool "odd" failed: plain string')
  })

  it('times out a slow handler and aborts its signal', async () => {
    silenceWarnings()
    let signal: AbortSignal | undefined
    const tools = toolSetFromArray([tool('slow', (_args, context) => {
      signal = context.signal
      return new Promise(resolve => setTimeout(() => resolve('late'), 5_000))
    }, { timeoutMs: 20 })])
    const [result] = await executeToolCalls([call('slow')], tools, options)
    expect(result).toMatchObject({ status: 'error', content: 'Error: tool "slow" timed out after 20 ms', error: { kind: 'timeout' } })
    expect(signal?.aborted).toBe(true)
  })

  it('times out after the default 10 s', async () => {
    silenceWarnings()
    vi.useFakeTimers()
    const tools = toolSetFromArray([tool('x', () => new Promise(() => {}))])
    const pending = executeToolCalls([call('x')], tools, options)
    await vi.advanceTimersByTimeAsync(10_000)
    const [result] = await pending
    expect(result!.content).toBe('Error: tool "x" timed out after 10 s')
  })

  it('times out a handler that never settles and ignores its signal', async () => {
    silenceWarnings()
    const tools = toolSetFromArray([tool('stuck', () => new Promise(() => {}))])
    const [result] = await executeToolCalls([call('stuck')], tools, { ...options, defaultTimeoutMs: 15 })
    expect(result).toMatchObject({ status: 'error', error: { kind: 'timeout' } })
  })

  it.each([
    ['undefined', () => undefined, 'returned undefined'],
    ['a function', () => () => 1, 'returned a function'],
    ['a symbol', () => Symbol('s'), 'returned a symbol'],
    ['a bigint', () => 10n, 'returned a bigint'],
    ['a circular object', () => {
      const value: Record<string, unknown> = {}
      value.self = value
      return value
    }, 'returned a value that cannot be serialised to JSON'],
  ])('refuses a handler that returns %s', async (_kind, handler, reason) => {
    silenceWarnings()
    const { results: [result], setLastError } = await executeAndFollow([call('bad')], toolSetFromArray([tool('bad', handler)]))
    expect(result).toMatchObject({ status: 'error', error: { kind: 'invalid-output' } })
    expect(result!.content).toContain(`Error: tool "bad" ${reason}`)
    expect(setLastError).toHaveBeenCalledOnce()
  })

  it('answers a call to an unknown tool with the available names', async () => {
    silenceWarnings()
    const tools = toolSetFromArray([tool('a', () => ''), tool('b', () => '')])
    const [result] = await executeToolCalls([call('x')], tools, options)
    expect(result).toMatchObject({ status: 'error', content: 'Error: no tool named "x" is available. Available tools: a, b', error: { kind: 'no-such-tool' } })
  })

  it('treats a tool that is switched off (not in the tool set) as unknown', async () => {
    silenceWarnings()
    const handler = vi.fn()
    const switchedOff = tool('delete_files', handler)
    const enabled = toolSetFromArray([tool('calculate', () => '4'), switchedOff].filter(item => item !== switchedOff))
    const [result] = await executeToolCalls([call('delete_files')], enabled, options)
    expect(result!.content).toBe('Error: no tool named "delete_files" is available. Available tools: calculate')
    expect(handler).not.toHaveBeenCalled()
  })

  it('does not find prototype members as tools', async () => {
    silenceWarnings()
    const [result] = await executeToolCalls([call('toString'), call('__proto__')], toolSetFromArray([]), options)
    expect(result!.content).toBe('Error: no tool named "toString" is available. Available tools: none')
  })

  it('refuses arguments that fail the schema, without running the handler', async () => {
    silenceWarnings()
    const handler = vi.fn()
    const tools = toolSetFromArray([weatherTool(handler)])
    const { results: [result], setLastError } = await executeAndFollow([call('get_weather', { days: 2 })], tools)
    expect(result).toMatchObject({ status: 'error', content: 'Error: invalid arguments for "get_weather": city: required', error: { kind: 'invalid-input' } })
    expect(handler).not.toHaveBeenCalled()
    // The model's mistake, not the tool's: the tool keeps a clean record.
    expect(setLastError).not.toHaveBeenCalled()
  })

  it('refuses arguments that are not JSON', async () => {
    silenceWarnings()
    const [result] = await executeToolCalls([call('get_weather', '{"city": "Par')], toolSetFromArray([weatherTool(() => '')]), options)
    expect(result!.content).toMatch(/^Error: invalid arguments for "get_weather": arguments are not valid JSON: /)
  })

  it('drops __proto__ keys before the handler sees the arguments', async () => {
    let received: Record<string, unknown> | undefined
    const tools = toolSetFromArray([weatherTool((args) => {
      received = args
      return 'ok'
    })])
    const [result] = await executeToolCalls([call('get_weather', '{"city":"Rome","__proto__":{"isAdmin":true}}')], tools, options)
    expect(result!.status).toBe('done')
    expect(received).toEqual({ city: 'Rome' })
    expect(received?.isAdmin).toBeUndefined()
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
  })

  it('handles 1 MB of arguments', async () => {
    const text = 'a'.repeat(1024 * 1024)
    const tools = toolSetFromArray([weatherTool(args => (args.city as string).length)])
    const [result] = await executeToolCalls([call('get_weather', { city: text })], tools, options)
    expect(result).toMatchObject({ status: 'done', content: String(1024 * 1024) })
  })

  it('cancels every unfinished call when the user stops, and aborts their signals', async () => {
    const controller = new AbortController()
    const signals: AbortSignal[] = []
    const tools = toolSetFromArray([
      tool('fast', () => 'quick'),
      tool('slow', (_args, context) => {
        signals.push(context.signal)
        setTimeout(() => controller.abort(), 10)
        return new Promise(() => {})
      }),
      tool('stubborn', (_args, context) => {
        signals.push(context.signal)
        return new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted'))))
      }),
    ])
    const results = await executeToolCalls([call('fast'), call('slow'), call('stubborn')], tools, { ...options, signal: controller.signal })
    expect(results.map(result => [result.name, result.status, result.content])).toEqual([
      ['fast', 'done', 'quick'],
      ['slow', 'cancelled', 'Cancelled by the user.'],
      ['stubborn', 'cancelled', 'Cancelled by the user.'],
    ])
    expect(signals.every(signal => signal.aborted)).toBe(true)
  })

  it('cancels without running anything when already stopped', async () => {
    const handler = vi.fn()
    const controller = new AbortController()
    controller.abort()
    const [result] = await executeToolCalls([call('x')], toolSetFromArray([tool('x', handler)]), { ...options, signal: controller.signal })
    expect(result!.status).toBe('cancelled')
    expect(handler).not.toHaveBeenCalled()
  })

  it('keeps going after one failure: other calls of the turn still run', async () => {
    silenceWarnings()
    const tools = toolSetFromArray([tool('bad', () => { throw new Error('boom') }), tool('good', () => 'fine')])
    const results = await executeToolCalls([call('bad'), call('good')], tools, options)
    expect(results.map(result => result.status)).toEqual(['error', 'done'])
  })
})

describe('executeToolCalls: Stop from a callback', () => {
  it('cancels a call when Stop is pressed as it starts', async () => {
    const controller = new AbortController()
    const handler = vi.fn(() => new Promise(() => {}))
    const [result] = await executeToolCalls([call('x')], toolSetFromArray([tool('x', handler)]), {
      ...options,
      signal: controller.signal,
      defaultTimeoutMs: 60_000,
      onStart: () => controller.abort(),
    })
    expect(result!.status).toBe('cancelled')
    expect(handler).not.toHaveBeenCalled()
  })
})
