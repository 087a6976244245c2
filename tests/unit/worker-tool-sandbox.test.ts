import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolCall } from '#shared/types/chat'
import type { ExecuteToolCallsOptions } from '#shared/tools/execute-tool-calls'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { defineTool } from '../../shared/tools/definition/define-tool'
import { runSandboxedCall } from '~/utils/chat/sandbox/run-sandboxed-call'
import { createWorkerToolSandbox } from '~/utils/chat/sandbox/worker-tool-sandbox'
import type { WorkerToolSandbox } from '~/utils/chat/sandbox/worker-tool-sandbox'
import { ToolSandboxError } from '~/utils/chat/registry/errors/tool-sandbox-error'
import { fakeWorkerSpawner } from './helpers/fake-sandbox-worker'
import type { FakeWorkerBehaviour } from './helpers/fake-sandbox-worker'

const textParameters = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] }

/** Plugin files as the worker's `import.meta.glob` sees them. */
const modules = {
  '../../../../plugins/echo.ts': async () => ({
    default: defineTool({
      name: 'echo',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
      sandbox: 'worker',
      handler({ text }, context) {
        context.status(`echoing ${text}`)
        return `${text} (${context.threadId}/${context.callId})`
      },
    }),
  }),
  '../../../../plugins/broken.ts': async () => ({
    default: defineTool({ name: 'broken', sandbox: 'worker', handler: () => { throw new Error('Broken on purpose') } }),
  }),
}

/** Runs requests as the real worker does: the real plugin lookup and handler, one process stand-in. */
const realWorker: FakeWorkerBehaviour = (request, reply) => void runSandboxedCall(request, modules, reply)

/** A worker stuck in a synchronous loop: it never answers (a never-settling handler looks the same to the page). */
const busyWorker: FakeWorkerBehaviour = () => {}

function call(name: string, args: unknown = {}, id = `call_${name}`): ToolCall {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } }
}

function sandboxedToolSet(sandbox: WorkerToolSandbox, name: string, timeoutMs?: number) {
  const parameters = name === 'echo' ? textParameters : { type: 'object' as const, properties: {} }
  return toolSetFromArray([{ definition: { type: 'function', function: { name, parameters } }, handler: sandbox.handler, timeoutMs }])
}

function run(sandbox: WorkerToolSandbox, calls: ToolCall[], extra: Partial<ExecuteToolCallsOptions> & { timeoutMs?: number } = {}) {
  const { timeoutMs, ...options } = extra
  return executeToolCalls(calls, sandboxedToolSet(sandbox, calls[0]!.function.name, timeoutMs), { threadId: 'thread-1', ...options })
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('a tool with sandbox: worker', () => {
  it('runs in a worker that receives only its arguments, ids and settings, and returns the handler\'s result', async () => {
    const { spawn, workers } = fakeWorkerSpawner(realWorker)
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const [result] = await run(sandbox, [call('echo', { text: 'hi' })])
    expect(result).toMatchObject({ status: 'done', content: 'hi (thread-1/call_echo)' })
    expect(workers).toHaveLength(1)
    expect(workers[0]!.requests).toEqual([{ type: 'run', file: 'echo.ts', toolName: 'echo', args: { text: 'hi' }, threadId: 'thread-1', callId: 'call_echo', settings: {} }])
  })

  it('shows the worker\'s status() messages on the tool card', async () => {
    const { spawn } = fakeWorkerSpawner(realWorker)
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const onStatus = vi.fn()
    await run(sandbox, [call('echo', { text: 'hi' })], { onStatus })
    expect(onStatus).toHaveBeenCalledWith('call_echo', 'echoing hi')
  })

  it('reports an error the handler throws in the worker with the handler\'s own message', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { spawn, workers } = fakeWorkerSpawner(realWorker)
    const sandbox = createWorkerToolSandbox({ file: 'broken.ts', toolName: 'broken', spawn })
    const [result] = await run(sandbox, [call('broken')])
    expect(result).toMatchObject({ status: 'error', content: 'Error: tool "broken" failed: Broken on purpose', error: { kind: 'execution' } })
    // A handler that threw leaves its worker healthy: it stays warm.
    expect(workers[0]!.terminated).toBe(false)
  })

  it('keeps one warm worker between calls', async () => {
    const { spawn, workers } = fakeWorkerSpawner(realWorker)
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    await run(sandbox, [call('echo', { text: 'one' })])
    const [second] = await run(sandbox, [call('echo', { text: 'two' })])
    expect(second).toMatchObject({ status: 'done', content: 'two (thread-1/call_echo)' })
    expect(workers).toHaveLength(1)
    expect(workers[0]!.terminated).toBe(false)
  })

  it('gives concurrent calls a worker each, and keeps only one of them warm afterwards', async () => {
    const { spawn, workers } = fakeWorkerSpawner(realWorker)
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const results = await run(sandbox, [call('echo', { text: 'a' }, 'c1'), call('echo', { text: 'b' }, 'c2')])
    expect(results.map(result => result.content)).toEqual(['a (thread-1/c1)', 'b (thread-1/c2)'])
    expect(workers).toHaveLength(2)
    expect(workers.filter(worker => worker.terminated)).toHaveLength(1)
  })

  it('kills a worker that never answers at the timeout, and starts a fresh one for the next call', async () => {
    vi.useFakeTimers()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    let behaviour = busyWorker
    const { spawn, workers } = fakeWorkerSpawner((request, reply) => behaviour(request, reply))
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const pending = run(sandbox, [call('echo', { text: 'forever' })], { timeoutMs: 5_000 })
    await vi.advanceTimersByTimeAsync(5_000)
    const [result] = await pending
    expect(result).toMatchObject({ status: 'error', error: { kind: 'timeout', message: 'tool "echo" timed out after 5 s' } })
    expect(workers[0]!.terminated).toBe(true)

    behaviour = realWorker
    const [next] = await run(sandbox, [call('echo', { text: 'again' })])
    expect(next).toMatchObject({ status: 'done', content: 'again (thread-1/call_echo)' })
    expect(workers).toHaveLength(2)
  })

  it('with killAfter, terminates a worker that has not answered by then, before the executor\'s timeout', async () => {
    vi.useFakeTimers()
    const { spawn, workers } = fakeWorkerSpawner(busyWorker)
    const sandbox = createWorkerToolSandbox({
      file: 'echo.ts',
      toolName: 'echo',
      spawn,
      killAfter: { ms: 2_250, error: () => Object.assign(new Error('ran past its time limit of 2000 ms'), { name: 'TimeoutError' }) },
    })
    const pending = run(sandbox, [call('echo', { text: 'forever' })], { timeoutMs: 3_000 })
    await vi.advanceTimersByTimeAsync(2_249)
    expect(workers[0]!.terminated).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(workers[0]!.terminated).toBe(true)
    const [result] = await pending
    expect(result).toMatchObject({ status: 'error', error: { kind: 'execution', message: expect.stringContaining('ran past its time limit of 2000 ms') } })
  })

  it('kills the worker when the user presses Stop, and the call ends cancelled', async () => {
    const stop = new AbortController()
    const { spawn, workers } = fakeWorkerSpawner(() => stop.abort())
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const [result] = await run(sandbox, [call('echo', { text: 'stop me' })], { signal: stop.signal })
    expect(result).toMatchObject({ status: 'cancelled' })
    expect(workers[0]!.terminated).toBe(true)
  })

  it('starts no worker for a call that was stopped before it began', async () => {
    const { spawn, workers } = fakeWorkerSpawner(realWorker)
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const controller = new AbortController()
    controller.abort(new Error('Stopped'))
    await expect(sandbox.handler({ text: 'x' }, { signal: controller.signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })).rejects.toThrow('Stopped')
    expect(workers).toHaveLength(0)
  })
})

describe('a sandbox worker that fails', () => {
  it('ends the call with a clear error when the worker script fails to load, and does not reuse it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    let behaviour: FakeWorkerBehaviour = () => workers.at(-1)!.crash()
    const { spawn, workers } = fakeWorkerSpawner((request, reply) => behaviour(request, reply))
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const [result] = await run(sandbox, [call('echo', { text: 'x' })])
    expect(result!.status).toBe('error')
    expect(result!.content).toMatch(/^Error: tool "echo" failed: the tool's Web Worker failed to load \(the browser console says why/)
    expect(workers[0]!.terminated).toBe(true)

    behaviour = realWorker
    await run(sandbox, [call('echo', { text: 'y' })])
    expect(workers).toHaveLength(2)
  })

  it('names an uncaught error thrown in the worker outside the handler\'s promise', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { spawn, workers } = fakeWorkerSpawner(() => workers[0]!.crash('Uncaught RangeError: Invalid array length'))
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    const [result] = await run(sandbox, [call('echo', { text: 'x' })])
    expect(result!.content).toBe('Error: tool "echo" failed: the tool\'s Web Worker stopped on an uncaught error: Uncaught RangeError: Invalid array length')
    expect(workers[0]!.terminated).toBe(true)
  })

  it('ends the call with a clear error where Web Workers are not available', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sandbox = createWorkerToolSandbox({
      file: 'echo.ts',
      toolName: 'echo',
      spawn: () => {
        throw new ReferenceError('Worker is not defined')
      },
    })
    const [result] = await run(sandbox, [call('echo', { text: 'x' })])
    expect(result!.content).toBe('Error: tool "echo" failed: the tool\'s Web Worker could not start: Worker is not defined')
  })

  it('on dispose, terminates the warm worker and fails the calls still running', async () => {
    let behaviour = realWorker
    const { spawn, workers } = fakeWorkerSpawner((request, reply) => behaviour(request, reply))
    const sandbox = createWorkerToolSandbox({ file: 'echo.ts', toolName: 'echo', spawn })
    await run(sandbox, [call('echo', { text: 'warm' })])
    behaviour = busyWorker
    const context = { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} }
    const onWarmWorker = sandbox.handler({ text: 'x' }, context)
    const onNewWorker = sandbox.handler({ text: 'y' }, context)
    sandbox.dispose()
    await expect(onWarmWorker).rejects.toThrow(ToolSandboxError)
    await expect(onNewWorker).rejects.toThrow('the tool\'s Web Worker was shut down (the tool was unloaded)')
    expect(workers.every(worker => worker.terminated)).toBe(true)
    await expect(sandbox.handler({ text: 'z' }, context)).rejects.toThrow('was shut down')
  })
})
