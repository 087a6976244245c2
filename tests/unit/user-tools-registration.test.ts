import { describe, expect, it, vi } from 'vitest'
import type { UserToolRecord } from '~/db/types'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { createUserToolsRegistration } from '~/utils/chat/user-tools/user-tools-registration'
import { checkUserToolSyntax, testRunUserTool } from '~/utils/chat/user-tools/user-tool-sandbox'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { quickJSWorkerSpawner } from './helpers/quickjs'

const context = (signal = new AbortController().signal) => ({ signal, threadId: 'thread-1', callId: 'call-1', status: vi.fn(), settings: {} })

function record(fields: Partial<UserToolRecord> & Pick<UserToolRecord, 'name' | 'code'>): UserToolRecord {
  return {
    id: `id-${fields.name}`,
    description: `The ${fields.name} tool.`,
    parameters: JSON.stringify({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }),
    createdAt: 1,
    updatedAt: 1,
    ...fields,
  }
}

describe('the user\'s tools in the registry', () => {
  it('registers each stored tool as sandboxed, and its calls run in QuickJS', async () => {
    const registry = createToolRegistry()
    const { spawn, workers } = quickJSWorkerSpawner()
    const registration = createUserToolsRegistration(registry, { spawn })
    registration.apply([record({ name: 'add_numbers', code: 'console.log("adding"); return args.a + args.b' })])

    const tool = registry.getTool('add_numbers')!
    expect(tool).toMatchObject({ sandbox: 'worker', category: 'Your tools', description: 'The add_numbers tool.' })
    expect(tool.definition.function.parameters).toMatchObject({ properties: { a: { type: 'number' } } })
    const callContext = context()
    expect(await tool.handler({ a: 2, b: 3 }, callContext)).toBe(5)
    expect(callContext.status).toHaveBeenCalledWith('adding')
    expect(workers[0]!.requests[0]).toMatchObject({ type: 'run', code: 'console.log("adding"); return args.a + args.b', args: { a: 2, b: 3 } })
  })

  it('runs through the executor: the handler\'s error becomes the tool\'s error result', async () => {
    const registry = createToolRegistry()
    const registration = createUserToolsRegistration(registry, quickJSWorkerSpawner())
    registration.apply([record({ name: 'try_fetch', code: 'return await fetch("https://example.com")' })])
    const toolSet = await registry.getToolSet({ threadId: 't' })
    const [result] = await executeToolCalls([{ id: 'c1', type: 'function', function: { name: 'try_fetch', arguments: '{}' } }], toolSet, { threadId: 't' })
    expect(result).toMatchObject({ status: 'error' })
    expect(result!.content).toContain('\'fetch\' is not defined')
  })

  it('registers an edited tool again with its new code, and unregisters a deleted one', async () => {
    const registry = createToolRegistry()
    const registration = createUserToolsRegistration(registry, quickJSWorkerSpawner())
    const first = record({ name: 'greet', code: 'return "hello"' })
    registration.apply([first])
    expect(await registry.getTool('greet')!.handler({}, context())).toBe('hello')

    registration.apply([{ ...first, code: 'return "bonjour"', updatedAt: 2 }])
    expect(await registry.getTool('greet')!.handler({}, context())).toBe('bonjour')

    registration.apply([])
    expect(registry.getTool('greet')).toBeUndefined()
  })

  it('gives every call a fresh worker and terminates it once it answered', async () => {
    const registry = createToolRegistry()
    const { spawn, workers } = quickJSWorkerSpawner()
    createUserToolsRegistration(registry, { spawn }).apply([record({ name: 'count', code: 'globalThis.n = (globalThis.n ?? 0) + 1; return n' })])
    expect(await registry.getTool('count')!.handler({}, context())).toBe(1)
    expect(await registry.getTool('count')!.handler({}, context())).toBe(1)
    expect(workers).toHaveLength(2)
    expect(workers.every(worker => worker.terminated)).toBe(true)
  })

  it('follows a rename: the old name goes, the new one comes', () => {
    const registry = createToolRegistry()
    const registration = createUserToolsRegistration(registry, quickJSWorkerSpawner())
    const tool = record({ name: 'old_name', code: 'return 1' })
    registration.apply([tool])
    registration.apply([{ ...tool, name: 'new_name', updatedAt: 2 }])
    expect(registry.listTools.value.map(entry => entry.name)).toEqual(['new_name'])
  })

  it('leaves another tool\'s name alone and says why its own tool is missing', () => {
    const registry = createToolRegistry()
    const pluginHandler = () => 'plugin'
    registry.registerTool({ type: 'function', function: { name: 'calculate' } }, pluginHandler)
    const registration = createUserToolsRegistration(registry, quickJSWorkerSpawner())
    registration.apply([record({ name: 'calculate', code: 'return 0' }), record({ name: 'ok_tool', code: 'return 1' })])
    expect(registry.getTool('calculate')!.handler).toBe(pluginHandler)
    expect(registration.owns('calculate')).toBe(false)
    expect(registration.owns('ok_tool')).toBe(true)
    expect(registration.failures.value.get('calculate')).toBe('another tool is already named "calculate"')
  })

  it('terminates the worker of a call that is stopped', async () => {
    const registry = createToolRegistry()
    const { spawn, workers } = quickJSWorkerSpawner()
    createUserToolsRegistration(registry, { spawn }).apply([record({ name: 'spin', code: 'for (;;) {}', timeoutMs: 2_000 })])
    const stop = new AbortController()
    const call = registry.getTool('spin')!.handler({}, context(stop.signal))
    stop.abort(new Error('stopped by the user'))
    await expect(call).rejects.toThrow('stopped by the user')
    expect(workers[0]!.terminated).toBe(true)
  })
})

describe('the editor\'s test run and syntax check', () => {
  it('returns the value and the console output, in a worker that is thrown away', async () => {
    const { spawn, workers } = quickJSWorkerSpawner()
    expect(await testRunUserTool('console.log("n is", args.n); return args.n * 2', { n: 21 }, { spawn }))
      .toEqual({ ok: true, value: 42, logs: ['n is 21'], droppedLogs: 0 })
    expect(workers[0]!.terminated).toBe(true)
  })

  it('reports a hostile handler\'s failure as a message', async () => {
    const { spawn } = quickJSWorkerSpawner()
    expect(await testRunUserTool('return new Uint8Array(1024 * 1024 * 1024)', {}, { spawn }))
      .toMatchObject({ ok: false, name: 'MemoryLimitError', message: 'ran out of memory (the sandbox allows 32 MB)' })
    expect(await testRunUserTool('while (true) {}', {}, { spawn, timeoutMs: 400 }))
      .toMatchObject({ ok: false, name: 'TimeoutError', message: expect.stringContaining('ran past its time limit of 400 ms and was stopped') })
  })

  it('checks the syntax without running the handler', async () => {
    const { spawn } = quickJSWorkerSpawner()
    expect(await checkUserToolSyntax('for (;;) {}', { spawn })).toBeNull()
    expect(await checkUserToolSyntax('return (', { spawn })).toMatch(/^SyntaxError/)
  })
})
