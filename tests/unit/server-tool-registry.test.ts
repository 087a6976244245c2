// The server tool registry of design 002, as a plugin author registers tools and server code runs them.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ServerToolDefinition } from '#shared/types/server-tools'
import * as executor from '#shared/tools/execute-tool-calls'
import {
  executeServerTool, getServerTool, listServerTools, MAX_SERVER_TOOL_RESULT_CHARS, registerServerTool, unregisterServerTool,
} from '~~/server/utils/chat/tool-registry'
import { DuplicateServerToolError } from '~~/server/utils/chat/errors/duplicate-server-tool-error'

// The registry must run calls through the browser's executor, not a copy: the real one, watched.
vi.mock('#shared/tools/execute-tool-calls', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#shared/tools/execute-tool-calls')>()
  return { ...actual, executeToolCalls: vi.fn(actual.executeToolCalls) }
})

function definition(name: string, extra: Partial<ServerToolDefinition> = {}): ServerToolDefinition {
  return {
    type: 'function',
    function: { name, description: `${name} tool`, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
    ...extra,
  }
}

afterEach(() => {
  for (const tool of listServerTools()) unregisterServerTool(tool.name)
  vi.useRealTimers()
  vi.restoreAllMocks()
})

function quiet() {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
}

describe('registerServerTool and the registry API', () => {
  it('lists tools in registration order, finds them by name and unregisters them', () => {
    registerServerTool(definition('first'), () => 'a')
    registerServerTool(definition('second'), () => 'b')
    expect(listServerTools().map(tool => tool.name)).toEqual(['first', 'second'])
    expect(getServerTool('second')).toMatchObject({ name: 'second', runtime: 'hybrid', timeoutMs: 10_000, actsOutsideApp: false })
    expect(unregisterServerTool('first')).toBe(true)
    expect(unregisterServerTool('first')).toBe(false)
    expect(getServerTool('first')).toBeUndefined()
    expect(listServerTools().map(tool => tool.name)).toEqual(['second'])
  })

  it('refuses a second tool of the same name unless override is set, which replaces it in place', async () => {
    registerServerTool(definition('weather'), () => 'old')
    registerServerTool(definition('other'), () => 'x')
    expect(() => registerServerTool(definition('weather'), () => 'new')).toThrow(DuplicateServerToolError)
    expect(() => registerServerTool(definition('weather'), () => 'new')).toThrow('Tool "weather" is already registered on server.')
    registerServerTool(definition('weather'), () => 'new', { override: true })
    expect(listServerTools().map(tool => tool.name)).toEqual(['weather', 'other'])
    expect((await executeServerTool('weather', '{"city":"Oslo"}')).result).toBe('new')
  })

  it('returns a disposer that leaves a later override alone', () => {
    const disposeOld = registerServerTool(definition('weather'), () => 'old')
    registerServerTool(definition('weather'), () => 'new', { override: true })
    disposeOld()
    expect(getServerTool('weather')).toBeDefined()
  })

  it('takes the runtime from the options, else the definition, else hybrid', () => {
    registerServerTool(definition('plain'), () => '')
    registerServerTool(definition('from_definition', { runtime: 'server' }), () => '')
    registerServerTool(definition('from_options', { runtime: 'server' }), () => '', { runtime: 'client' })
    expect(listServerTools().map(tool => [tool.name, tool.runtime, tool.definition.runtime])).toEqual([
      ['plain', 'hybrid', 'hybrid'], ['from_definition', 'server', 'server'], ['from_options', 'client', 'client'],
    ])
  })

  it('defaults the timeout to 10 s, takes the definition\'s or the options\', and lowers one above 120 s', () => {
    registerServerTool(definition('default'), () => '')
    registerServerTool(definition('from_definition', { timeoutMs: 5_000 }), () => '')
    registerServerTool(definition('from_options', { timeoutMs: 5_000 }), () => '', { timeoutMs: 2_500.2 })
    registerServerTool(definition('too_long'), () => '', { timeoutMs: 3_600_000 })
    expect(listServerTools().map(tool => tool.timeoutMs)).toEqual([10_000, 5_000, 2_501, 120_000])
  })

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5000'])('refuses the timeout %s', (timeoutMs) => {
    expect(() => registerServerTool(definition('bad'), () => '', { timeoutMs: timeoutMs as number })).toThrow(/timeoutMs must be a positive number/)
    expect(getServerTool('bad')).toBeUndefined()
  })

  it('refuses invalid names, parameters, runtimes and handlers with the tool named', () => {
    expect(() => registerServerTool(definition('has space'), () => '')).toThrow('Server tool "has space": function.name must be')
    expect(() => registerServerTool({ type: 'function', function: { name: 'x', parameters: { type: 'array' } as never } }, () => '')).toThrow(/parameters must be a JSON Schema object/)
    expect(() => registerServerTool(definition('x'), () => '', { runtime: 'edge' as never })).toThrow(/runtime must be one of hybrid, client, server/)
    expect(() => registerServerTool(definition('x'), 'nope' as never)).toThrow(/handler must be a function/)
    expect(listServerTools()).toEqual([])
  })

  it('keeps a copy of the definition with its metadata, so later changes to the object do not leak in', () => {
    const input = definition('weather', { ui: { label: 'Weather', icon: 'i-lucide-sun', category: 'Web' }, actsOutsideApp: true, available: () => true } as Partial<ServerToolDefinition>)
    registerServerTool(input, () => '')
    input.function.description = 'changed'
    const tool = getServerTool('weather')!
    expect(tool.definition).toMatchObject({ function: { description: 'weather tool' }, ui: { label: 'Weather', icon: 'i-lucide-sun', category: 'Web' }, runtime: 'hybrid', timeoutMs: 10_000 })
    expect(tool.actsOutsideApp).toBe(true)
    expect(JSON.parse(JSON.stringify(tool.definition))).toEqual(tool.definition)
  })

  it('gives a tool without parameters an empty object schema', async () => {
    registerServerTool({ type: 'function', function: { name: 'ping' } }, () => 'pong')
    expect(getServerTool('ping')!.executable.definition.function.parameters).toEqual({ type: 'object', properties: {} })
    expect((await executeServerTool('ping', '')).result).toBe('pong')
  })
})

describe('executeServerTool', () => {
  it('runs the handler with the validated arguments through the shared executor and returns its text', async () => {
    vi.mocked(executor.executeToolCalls).mockClear()
    const handler = vi.fn((args: { city: string }) => `Sunny in ${args.city}`)
    registerServerTool(definition('weather', { runtime: 'server' }), handler)
    const execution = await executeServerTool('weather', '{"city":"Paris"}')
    expect(execution).toEqual({ result: 'Sunny in Paris', toolName: 'weather', timedOut: false, runtime: 'server' })
    expect(handler.mock.calls[0]![0]).toEqual({ city: 'Paris' })
    expect(vi.mocked(executor.executeToolCalls)).toHaveBeenCalledTimes(1)
  })

  it('serialises a JSON value a handler returns', async () => {
    registerServerTool(definition('weather'), () => ({ temperature: 21 }))
    expect((await executeServerTool('weather', '{"city":"Paris"}')).result).toBe('{"temperature":21}')
  })

  it('says exactly that a missing tool is not registered', async () => {
    expect(await executeServerTool('nope', '{}')).toEqual({ result: null, toolName: 'nope', timedOut: false, error: 'Tool "nope" is not registered on server.' })
  })

  it('refuses a client-only tool without running it', async () => {
    const handler = vi.fn(() => 'ran')
    registerServerTool(definition('clipboard'), handler, { runtime: 'client' })
    const execution = await executeServerTool('clipboard', '{"city":"x"}')
    expect(execution).toMatchObject({ result: null, timedOut: false, runtime: 'client', error: expect.stringMatching(/runs only in the browser/) })
    expect(handler).not.toHaveBeenCalled()
  })

  it('answers invalid JSON and arguments that break the schema with the validation error, without running the handler', async () => {
    quiet()
    const handler = vi.fn(() => 'ran')
    registerServerTool(definition('weather'), handler)
    expect((await executeServerTool('weather', '{"city":')).error).toMatch(/^invalid arguments for "weather": arguments are not valid JSON/)
    expect((await executeServerTool('weather', '[1]')).error).toBe('invalid arguments for "weather": arguments must be a JSON object, got an array')
    expect((await executeServerTool('weather', '{}')).error).toBe('invalid arguments for "weather": city: required')
    expect((await executeServerTool('weather', '{"city":"Oslo","extra":1}')).error).toMatch(/^invalid arguments for "weather": extra/)
    expect(handler).not.toHaveBeenCalled()
  })

  it('reports what a failing handler threw', async () => {
    quiet()
    registerServerTool(definition('weather'), () => {
      throw new Error('the weather service is down')
    })
    expect(await executeServerTool('weather', '{"city":"Oslo"}')).toEqual({
      result: null, toolName: 'weather', timedOut: false, runtime: 'hybrid', error: 'tool "weather" failed: the weather service is down',
    })
  })

  it('times out a handler that never settles, aborting its signal', async () => {
    quiet()
    vi.useFakeTimers()
    let signal: AbortSignal | undefined
    registerServerTool(definition('slow'), (_args, context) => {
      signal = context.signal
      return new Promise(() => {})
    }, { timeoutMs: 2_000 })
    const pending = executeServerTool('slow', '{"city":"Oslo"}')
    await vi.advanceTimersByTimeAsync(1_999)
    expect(signal?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await pending).toEqual({ result: null, toolName: 'slow', timedOut: true, runtime: 'hybrid', error: 'tool "slow" timed out after 2 s' })
    expect(signal?.aborted).toBe(true)
  })

  it('cuts a result over the size cap and says so', async () => {
    registerServerTool(definition('big'), () => 'x'.repeat(MAX_SERVER_TOOL_RESULT_CHARS * 3))
    const { result } = await executeServerTool('big', '{"city":"Oslo"}')
    expect(result!.startsWith('x'.repeat(MAX_SERVER_TOOL_RESULT_CHARS))).toBe(true)
    expect(result!.length).toBeLessThan(MAX_SERVER_TOOL_RESULT_CHARS + 200)
    expect(result).toContain(`[Result truncated: showing the first ${MAX_SERVER_TOOL_RESULT_CHARS} of ${MAX_SERVER_TOOL_RESULT_CHARS * 3} characters.]`)
  })

  it('aborts the handler when the caller\'s signal aborts', async () => {
    let signal: AbortSignal | undefined
    registerServerTool(definition('slow'), (_args, context) => {
      signal = context.signal
      return new Promise(() => {})
    })
    const controller = new AbortController()
    const pending = executeServerTool('slow', '{"city":"Oslo"}', { signal: controller.signal })
    await vi.waitFor(() => expect(signal).toBeDefined())
    controller.abort()
    expect(await pending).toMatchObject({ result: null, timedOut: false, error: 'Cancelled by the user.' })
    expect(signal!.aborted).toBe(true)
  })
})
