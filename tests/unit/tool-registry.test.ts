import { effectScope, isProxy, isReactive, watch, nextTick } from 'vue'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { createToolErrorListener } from '~/utils/chat/registry/tool-error-listener'
import { DuplicateToolError } from '~/utils/chat/registry/errors/duplicate-tool-error'
import { InvalidToolDefinitionError } from '../../shared/errors/invalid-tool-definition-error'
import type { RegisterableToolDefinition } from '~/utils/chat/registry/tool-registry-types'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'

function tool(name: string, extra: Partial<RegisterableToolDefinition> = {}, fn: Partial<RegisterableToolDefinition['function']> = {}): RegisterableToolDefinition {
  return {
    type: 'function',
    function: { name, description: `Does ${name}`, parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, ...fn },
    ...extra,
  }
}
const noop = () => 'ok'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('registerTool', () => {
  it('lists registered tools in registration order', () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('b_tool'), noop)
    registry.registerTool(tool('a_tool'), noop)
    registry.registerTool(tool('c_tool'), noop)
    expect(registry.listTools().value.map(entry => entry.name)).toEqual(['b_tool', 'a_tool', 'c_tool'])
  })

  it('rejects a second tool with the same name with DuplicateToolError', () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('dup'), noop)
    let caught: unknown
    try {
      registry.registerTool(tool('dup'), noop)
    }
    catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(DuplicateToolError)
    expect((caught as DuplicateToolError).toolName).toBe('dup')
    expect((caught as Error).message).toContain('Tool "dup" is already registered')
    expect(registry.listTools().value).toHaveLength(1)
  })

  it('replaces a tool with override and keeps its original position', () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('first'), noop)
    registry.registerTool(tool('second'), noop)
    const replacement = () => 'new'
    registry.registerTool(tool('first', {}, { description: 'Replaced' }), replacement, { override: true })
    expect(registry.listTools().value.map(entry => entry.name)).toEqual(['first', 'second'])
    expect(registry.getTool('first')?.handler).toBe(replacement)
    expect(registry.getTool('first')?.definition.function.description).toBe('Replaced')
  })

  it('keeps an override when the disposer of the replaced tool runs', () => {
    const registry = createToolRegistry()
    const disposeOriginal = registry.registerTool(tool('shared'), noop)
    registry.registerTool(tool('shared'), () => 'override', { override: true })
    disposeOriginal()
    expect(registry.getTool('shared')).toBeDefined()
  })

  it('unregisters with the returned disposer and with unregisterTool', () => {
    const registry = createToolRegistry()
    const dispose = registry.registerTool(tool('one'), noop)
    registry.registerTool(tool('two'), noop)
    dispose()
    expect(registry.getTool('one')).toBeUndefined()
    expect(registry.unregisterTool('two')).toBe(true)
    expect(registry.unregisterTool('two')).toBe(false)
    expect(registry.listTools().value).toEqual([])
  })

  it('unregisters a tool registered inside an effect scope when the scope is disposed', () => {
    const registry = createToolRegistry()
    const scope = effectScope()
    scope.run(() => registry.registerTool(tool('scoped'), noop))
    expect(registry.getTool('scoped')).toBeDefined()
    scope.stop()
    expect(registry.getTool('scoped')).toBeUndefined()
  })

  it('stores handlers raw, never as proxies', () => {
    const registry = createToolRegistry()
    const handler = () => 1
    registry.registerTool(tool('raw'), handler)
    const entry = registry.getTool('raw')!
    expect(entry.handler).toBe(handler)
    expect(isProxy(entry.handler)).toBe(false)
    expect(isProxy(entry.definition)).toBe(false)
  })

  it('updates listTools reactively', async () => {
    const registry = createToolRegistry()
    const seen: string[][] = []
    const stop = watch(registry.listTools(), list => seen.push(list.map(entry => entry.name)))
    registry.registerTool(tool('live'), noop)
    await nextTick()
    registry.unregisterTool('live')
    await nextTick()
    stop()
    expect(seen).toEqual([['live'], []])
  })
})

describe('metadata defaults', () => {
  it('derives label, icon, category and description when metadata is missing', () => {
    const registry = createToolRegistry()
    registry.registerTool({ type: 'function', function: { name: 'get_weather' } }, noop)
    const entry = registry.getTool('get_weather')!
    expect(entry).toMatchObject({ label: 'Get weather', icon: 'i-lucide-wrench', category: 'General', description: '' })
    expect([entry.enabled.value, entry.lastError.value]).toEqual([true, null])
    expect(entry.definition).toEqual({ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } })
  })

  it('prefers ui metadata over top-level metadata', () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('meta', {
      icon: 'i-lucide-top', category: 'Top', description: 'Top description',
      ui: { label: 'Nice label', icon: 'i-lucide-ui', category: 'Ui', descriptionHint: 'Hint for people' },
    }), noop)
    expect(registry.getTool('meta')).toMatchObject({ label: 'Nice label', icon: 'i-lucide-ui', category: 'Ui', description: 'Hint for people' })
  })

  it('uses the top-level description for the model when function.description is absent', () => {
    const registry = createToolRegistry()
    registry.registerTool({ type: 'function', function: { name: 'desc' }, description: 'Only here' }, noop)
    expect(registry.getEnabledDefinitions()[0]!.function.description).toBe('Only here')
  })

  it.each([
    [{}, {}, true],
    [{ defaultEnabled: false }, {}, false],
    [{ defaultEnabled: false, ui: { defaultEnabled: true } }, {}, true],
    [{ ui: { defaultEnabled: false } }, { enabled: true }, true],
  ] as const)('computes the initial enabled state from %o and options %o', (extra, options, expected) => {
    const registry = createToolRegistry()
    registry.registerTool(tool('state', extra as Partial<RegisterableToolDefinition>), noop, options)
    expect(registry.getTool('state')!.enabled.value).toBe(expected)
  })
})

describe('validation', () => {
  function rejection(definition: unknown): string {
    try {
      createToolRegistry().registerTool(definition as RegisterableToolDefinition, noop)
    }
    catch (error) {
      expect(error).toBeInstanceOf(InvalidToolDefinitionError)
      return (error as Error).message
    }
    throw new Error('expected a rejection')
  }

  it('names a bad tool name', () => {
    expect(rejection(tool('has space'))).toBe('Tool "has space": function.name must be 1 to 64 letters, digits, "_" or "-" (OpenAI\'s rule ^[a-zA-Z0-9_-]{1,64}$)')
    expect(rejection(tool('x'.repeat(65)))).toContain('function.name must be 1 to 64')
    expect(rejection(tool(''))).toContain('function.name must be 1 to 64')
  })

  it('names parameters that are not an object schema', () => {
    expect(rejection(tool('x', {}, { parameters: { type: 'string' } as never }))).toBe('Tool "x": parameters must be a JSON Schema object (got type "string")')
    expect(rejection(tool('x', {}, { parameters: 'object' as never }))).toBe('Tool "x": parameters must be a JSON Schema object (got string)')
    expect(rejection(tool('x', {}, { parameters: { properties: {} } as never }))).toBe('Tool "x": parameters must be a JSON Schema object (got type "undefined")')
  })

  it('names the place of an invalid keyword deep in the schema', () => {
    expect(rejection(tool('x', {}, { parameters: { type: 'object', properties: { city: { type: 'dict' } } } })))
      .toBe('Tool "x": parameters.properties.city.type must be one of string, number, integer, boolean, object, array, null (got "dict")')
    expect(rejection(tool('x', {}, { parameters: { type: 'object', required: 'city' as never } })))
      .toBe('Tool "x": parameters.required must be an array of property names (got string)')
    expect(rejection(tool('x', {}, { parameters: { type: 'object', properties: [] as never } })))
      .toBe('Tool "x": parameters.properties must be an object of schemas (got array)')
    expect(rejection(tool('x', {}, { parameters: { type: 'object', properties: { list: { type: 'array', items: 3 } } } })))
      .toBe('Tool "x": parameters.properties.list.items must be a schema object or boolean (got number)')
    expect(rejection(tool('x', {}, { parameters: { type: 'object', properties: { code: { type: 'string', pattern: '(' } } } })))
      .toContain('parameters.properties.code.pattern is not a valid regular expression')
  })

  it('rejects metadata of the wrong type', () => {
    expect(rejection(tool('x', { timeoutMs: -1 }))).toBe('Tool "x": timeoutMs must be a positive number of milliseconds (got -1)')
    expect(rejection(tool('x', { ui: { label: 3 } as never }))).toBe('Tool "x": ui.label must be a string (got number)')
    expect(rejection(tool('x', { available: true as never }))).toBe('Tool "x": available must be a function (got boolean)')
  })

  it('rejects a handler that is not a function', () => {
    expect(() => createToolRegistry().registerTool(tool('x'), 'nope' as never)).toThrow('Tool "x": the handler must be a function')
  })
})

describe('enabled states', () => {
  it('returns only enabled definitions, as pure JSON without metadata', () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('on', { ui: { label: 'On' }, icon: 'i-lucide-x', timeoutMs: 50, available: () => true }), noop)
    registry.registerTool(tool('off'), noop)
    registry.setEnabled('off', false)
    const definitions = registry.getEnabledDefinitions()
    expect(definitions).toEqual([{ type: 'function', function: { name: 'on', description: 'Does on', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } }])
    expect(structuredClone(definitions)).toEqual(definitions)
    expect(JSON.parse(JSON.stringify(definitions))).toEqual(definitions)
    expect(isReactive(definitions[0])).toBe(false)
  })

  it('copies the definition so later changes by the caller do not leak to the model', () => {
    const registry = createToolRegistry()
    const definition = tool('copy')
    registry.registerTool(definition, noop)
    ;(definition.function.parameters!.properties as Record<string, unknown>).injected = { type: 'string' }
    expect(registry.getEnabledDefinitions()[0]!.function.parameters.properties).not.toHaveProperty('injected')
  })

  it('returns false when switching a tool that is not registered', () => {
    expect(createToolRegistry().setEnabled('ghost', true)).toBe(false)
  })

  it('makes enabled and lastError reactive', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('watched'), noop)
    const entry = registry.getTool('watched')!
    const seen: Array<[boolean, string | null]> = []
    const stop = watch(() => [entry.enabled.value, entry.lastError.value] as [boolean, string | null], value => seen.push(value))
    registry.setEnabled('watched', false)
    await nextTick()
    const toolSet = await registry.getToolSet({ threadId: 't' })
    registry.setEnabled('watched', true)
    await nextTick()
    registry.setLastError('watched', 'boom')
    await nextTick()
    stop()
    expect(toolSet.definitions).toEqual([])
    expect(seen).toEqual([[false, null], [true, null], [true, 'boom']])
  })
})

describe('getToolSet', () => {
  it('offers enabled and available tools in registration order and nothing else', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('a'), noop)
    registry.registerTool(tool('hidden', { available: ({ threadId }) => threadId === 'other' }), noop)
    registry.registerTool(tool('b', { available: async () => true }), noop, { enabled: true })
    registry.registerTool(tool('off'), noop, { enabled: false })
    const toolSet = await registry.getToolSet({ threadId: 'thread-1' })
    expect(toolSet.definitions.map(definition => definition.function.name)).toEqual(['a', 'b'])
    expect(toolSet.get('a')?.handler).toBe(noop)
    expect(toolSet.get('hidden')).toBeUndefined()
    expect(toolSet.get('off')).toBeUndefined()
    expect((await registry.getToolSet({ threadId: 'other' })).definitions.map(definition => definition.function.name)).toEqual(['a', 'hidden', 'b'])
  })

  it('treats a throwing availability predicate as unavailable and warns', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = createToolRegistry()
    registry.registerTool(tool('flaky', { available: () => { throw new Error('db closed') } }), noop)
    registry.registerTool(tool('rejecting', { available: () => Promise.reject(new Error('nope')) }), noop)
    registry.registerTool(tool('fine'), noop)
    const toolSet = await registry.getToolSet({ threadId: 't' })
    expect(toolSet.definitions.map(definition => definition.function.name)).toEqual(['fine'])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('availability check of tool "flaky" failed; not offering it: db closed'))
  })

  it('passes timeoutMs to the executor, and lastError follows the run\'s events', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('slow', { timeoutMs: 1234 }), noop)
    const toolSet = await registry.getToolSet({ threadId: 't' })
    expect(toolSet.get('slow')?.timeoutMs).toBe(1234)
    const follow = createToolErrorListener(registry)
    const result = { callId: 'c1', name: 'slow', arguments: '{}', content: '', fullContent: '', truncated: false, startedAt: 0, finishedAt: 0 }
    follow({ type: 'tool-call-error', step: 1, result: { ...result, status: 'error', error: { kind: 'timeout', message: 'Timed out' } } })
    expect(registry.getTool('slow')!.lastError.value).toBe('Timed out')
    follow({ type: 'tool-call-error', step: 1, result: { ...result, status: 'error', error: { kind: 'invalid-input', message: 'city: required' } } })
    expect(registry.getTool('slow')!.lastError.value).toBe('Timed out')
    follow({ type: 'tool-call-done', step: 1, result: { ...result, status: 'done' } })
    expect(registry.getTool('slow')!.lastError.value).toBeNull()
  })

  it('waits for pending hydration before answering', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('late'), noop)
    let resolve!: (states: Record<string, boolean>) => void
    void registry.hydrate(new Promise(r => (resolve = r)))
    const pending = registry.getToolSet({ threadId: 't' })
    resolve({ late: false })
    expect((await pending).definitions).toEqual([])
  })
})

describe('hydrate', () => {
  it('switches registered tools and remembers states of tools registered later', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('now'), noop)
    await registry.hydrate({ now: false, later: false })
    registry.registerTool(tool('later'), noop)
    expect(registry.getTool('now')!.enabled.value).toBe(false)
    expect(registry.getTool('later')!.enabled.value).toBe(false)
  })

  it('lets an explicit enabled option win over a hydrated state', async () => {
    const registry = createToolRegistry()
    await registry.hydrate({ forced: false })
    registry.registerTool(tool('forced'), noop, { enabled: true })
    expect(registry.getTool('forced')!.enabled.value).toBe(true)
  })

  it('keeps working when hydration from a promise fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = createToolRegistry()
    registry.registerTool(tool('still'), noop)
    await registry.hydrate(Promise.reject(new Error('disk gone')))
    expect((await registry.getToolSet({ threadId: 't' })).definitions).toHaveLength(1)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('disk gone'))
  })
})

describe('getToolRegistry on the server', () => {
  it('ignores registerTool without window, returns a disposer and warns once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = getToolRegistry()
    const dispose = registry.registerTool(tool('server_side'), noop)
    registry.registerTool(tool('server_side_2'), noop)
    expect(typeof dispose).toBe('function')
    expect(() => dispose()).not.toThrow()
    expect(registry.listTools().value).toEqual([])
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toContain('client-only')
  })
})
