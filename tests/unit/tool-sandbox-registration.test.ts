import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineTool } from '../../shared/tools/definition/define-tool'
import { InvalidToolDefinitionError } from '../../shared/errors/invalid-tool-definition-error'
import { loadToolPlugins } from '~/utils/chat/registry/load-tool-plugins'
import { runSandboxedCall } from '~/utils/chat/sandbox/run-sandboxed-call'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { fakeWorkerSpawner } from './helpers/fake-sandbox-worker'

const context = () => ({ signal: new AbortController().signal, threadId: 'thread-1', callId: 'call-1', status: () => {}, settings: {} })

const sandboxed = defineTool({ name: 'heavy', sandbox: 'worker', handler: () => 'from the worker' })
const onPage = defineTool({ name: 'light', handler: () => 'from the page' })
const modules = {
  '../../plugins/heavy.ts': async () => ({ default: sandboxed }),
  '../../plugins/light.ts': async () => ({ default: onPage }),
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('loading a plugin that declares sandbox: worker', () => {
  it('registers a handler that runs the plugin file in a worker, started on the first call rather than at load', async () => {
    const registry = createToolRegistry()
    const { spawn, workers } = fakeWorkerSpawner((request, reply) => void runSandboxedCall(request, modules, reply))
    await loadToolPlugins(modules, registry, { spawnWorker: spawn })
    const heavy = registry.getTool('heavy')!
    expect(heavy.sandbox).toBe('worker')
    expect(heavy.handler).not.toBe(sandboxed.handler)
    expect(workers).toHaveLength(0)

    expect(await heavy.handler({}, context())).toBe('from the worker')
    expect(workers).toHaveLength(1)
    expect(workers[0]!.requests[0]).toMatchObject({ file: 'heavy.ts', toolName: 'heavy' })
  })

  it('keeps running other plugins on the page with their own handler', async () => {
    const registry = createToolRegistry()
    await loadToolPlugins(modules, registry, { spawnWorker: () => { throw new Error('no worker expected') } })
    expect(registry.getTool('light')).toMatchObject({ handler: onPage.handler, sandbox: undefined })
  })

  it('terminates the warm worker when the loaded plugins are disposed (hot reload)', async () => {
    const registry = createToolRegistry()
    const { spawn, workers } = fakeWorkerSpawner((request, reply) => void runSandboxedCall(request, modules, reply))
    const loaded = await loadToolPlugins(modules, registry, { spawnWorker: spawn })
    await registry.getTool('heavy')!.handler({}, context())
    loaded.dispose()
    expect(registry.getTool('heavy')).toBeUndefined()
    expect(workers[0]!.terminated).toBe(true)
  })

  it('registers the real calculate plugin as sandboxed', async () => {
    const registry = createToolRegistry()
    const { spawn, workers } = fakeWorkerSpawner(() => {})
    const result = await loadToolPlugins(import.meta.glob('../../plugins/*.ts'), registry, { spawnWorker: spawn })
    expect(result.failed).toEqual([])
    expect(registry.getTool('calculate')!.sandbox).toBe('worker')
    expect(workers).toHaveLength(0)
  })
})

describe('registerTool and sandbox', () => {
  it('refuses sandbox: worker with a plain function, rather than silently running it on the page', () => {
    const registry = createToolRegistry()
    expect(() => registry.registerTool({ ...sandboxed.definition }, () => 'x')).toThrow(InvalidToolDefinitionError)
    expect(() => registry.registerTool({ ...sandboxed.definition }, () => 'x')).toThrow(
      'Tool "heavy": sandbox "worker" needs a tool plugin file in plugins/ (the worker loads the handler from the file; a function cannot be moved into it)',
    )
    expect(registry.getTool('heavy')).toBeUndefined()
  })

  it('refuses a sandbox it does not know', () => {
    const registry = createToolRegistry()
    const definition = { type: 'function', function: { name: 'odd' }, sandbox: 'iframe' } as never
    expect(() => registry.registerTool(definition, () => 'x')).toThrow('Tool "odd": sandbox must be "worker" or left out (got "iframe")')
  })
})
