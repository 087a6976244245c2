import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ToolCall } from '#shared/types/chat'
import type { ExecutableTool, ToolHandler } from '#shared/tools/tool-types'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { toolSetFromArray } from '#shared/tools/tool-set'

/**
 * Whatever a model, a text-call parser or a plugin hands the executor, it answers with a result for every call:
 * never an exception out of executeToolCalls, never a promise that does not settle.
 */
function tool(name: string, handler: ToolHandler, extra: Partial<ExecutableTool> = {}): ExecutableTool {
  return { definition: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } }, handler, ...extra }
}

function callWith(args: unknown, name = 'echo'): ToolCall {
  return { id: 'call_1', type: 'function', function: { name, arguments: args as string } }
}

const options = { threadId: 'thread-1' }

async function runOne(handler: ToolHandler, extra: Partial<ExecutableTool> = {}) {
  const [result] = await executeToolCalls([callWith('{}')], toolSetFromArray([tool('echo', handler, extra)]), options)
  return result!
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('executeToolCalls: arguments that are not text', () => {
  it.each([
    ['an object', { city: 'Paris' }, 'an object', '{"city":"Paris"}'],
    ['a number', 42, 'a number', '42'],
    ['null', null, 'null', 'null'],
    ['undefined', undefined, 'undefined', ''],
  ])('refuses %s as arguments and records them as text', async (_kind, args, kind, recorded) => {
    const handler = vi.fn(() => 'ok')
    const [result] = await executeToolCalls([callWith(args)], toolSetFromArray([tool('echo', handler)]), options)
    expect(handler).not.toHaveBeenCalled()
    expect(result).toMatchObject({ status: 'error', error: { kind: 'invalid-input' }, arguments: recorded })
    expect(result!.content).toBe(`Error: invalid arguments for "echo": arguments must be JSON text, got ${kind}`)
  })

  it('answers a call that has no function at all', async () => {
    const [result] = await executeToolCalls([{ id: 'call_1' } as ToolCall], toolSetFromArray([tool('echo', () => 'ok')]), options)
    expect(result).toMatchObject({ status: 'error', name: '', arguments: '', error: { kind: 'no-such-tool' } })
  })

  it('answers when the tool set itself throws', async () => {
    const tools = { definitions: [], get: () => { throw new Error('registry broken') } }
    const [result] = await executeToolCalls([callWith('{}')], tools, options)
    expect(result).toMatchObject({ status: 'error', content: 'Error: tool "echo" failed: registry broken' })
  })
})

describe('executeToolCalls: handlers that throw hostile values', () => {
  it.each([
    ['an Error whose message getter throws', () => Object.defineProperty(new Error('x'), 'message', { get() { throw new Error('no') } }), 'a value that cannot be described (object)'],
    ['an object whose toString and toJSON throw', () => ({ toString() { throw new Error('no') }, toJSON() { throw new Error('no') } }), 'a value that cannot be described (object)'],
    ['a revoked Proxy', revokedProxy, 'a value that cannot be described (object)'],
    ['a Symbol', () => Symbol('boom'), 'Symbol(boom)'],
    ['null', () => null, 'null'],
    ['undefined', () => undefined, 'undefined'],
    ['an Error with a megabyte of message', () => new Error('m'.repeat(1_000_000)), `${'m'.repeat(499)}…`],
  ])('describes %s', async (_kind, thrown, description) => {
    const result = await runOne(() => { throw thrown() })
    expect(result).toMatchObject({ status: 'error', error: { kind: 'execution' } })
    expect(result.content).toBe(`Error: tool "echo" failed: ${description}`)
  })
})

describe('executeToolCalls: handlers that return values with no JSON form', () => {
  it.each([
    ['a toJSON that throws', () => ({ toJSON() { throw new Error('cannot') } }), '(cannot)'],
    ['a toJSON that throws null', () => ({ toJSON() { throw null } }), '(null)'],
    ['a getter that throws a revoked Proxy', () => ({ get value() { throw revokedProxy() } }), '(a value that cannot be described (object))'],
  ])('refuses %s', async (_kind, returned, reason) => {
    const result = await runOne(returned)
    expect(result).toMatchObject({ status: 'error', error: { kind: 'invalid-output' } })
    expect(result.content).toBe(`Error: tool "echo" returned a value that cannot be serialised to JSON ${reason}`)
  })

  it('answers a handler that returns a revoked Proxy', async () => {
    // Awaiting it reads `then`, which throws: the handler failed rather than returned.
    const result = await runOne(revokedProxy)
    expect(result).toMatchObject({ status: 'error', error: { kind: 'execution' } })
    expect(result.content).toMatch(/^Error: tool "echo" failed: /)
  })
})

describe('executeToolCalls: timeouts a timer cannot honour', () => {
  const never: ToolHandler = () => new Promise(() => {})

  it.each([
    ['NaN', Number.NaN],
    ['negative', -5],
    ['zero', 0],
    ['not a number', '5000'],
  ])('uses the 10 s default for a %s timeoutMs', async (_kind, timeoutMs) => {
    vi.useFakeTimers()
    const pending = runOne(never, { timeoutMs: timeoutMs as number })
    await vi.advanceTimersByTimeAsync(9_999)
    let settled = false
    void pending.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect((await pending).content).toBe('Error: tool "echo" timed out after 10 s')
  })

  it.each([
    ['Infinity', Number.POSITIVE_INFINITY],
    ['over 2^31-1 ms', 2 ** 31],
  ])('lets a handler with a %s timeoutMs run to the end instead of timing it out at once', async (_kind, timeoutMs) => {
    vi.useFakeTimers()
    const slow: ToolHandler = () => new Promise(resolve => setTimeout(() => resolve('finished'), 60_000))
    const pending = runOne(slow, { timeoutMs })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(await pending).toMatchObject({ status: 'done', content: 'finished' })
  })

  it('uses 10 s when defaultTimeoutMs is unusable', async () => {
    vi.useFakeTimers()
    const pending = executeToolCalls([callWith('{}')], toolSetFromArray([tool('echo', never)]), { ...options, defaultTimeoutMs: Number.NaN })
    await vi.advanceTimersByTimeAsync(10_000)
    expect((await pending)[0]!.content).toBe('Error: tool "echo" timed out after 10 s')
  })

  it('keeps results whole when maxResultChars is unusable', async () => {
    const [result] = await executeToolCalls([callWith('{}')], toolSetFromArray([tool('echo', () => 'abc')]), { ...options, maxResultChars: Number.NaN })
    expect(result).toMatchObject({ content: 'abc', truncated: false })
  })
})
