import { describe, expect, it } from 'vitest'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import { listMessages, toModelMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { runToolCommand } from '~/utils/chat/catalog/run-tool-command'
import { createToolSettingsStore, resolveToolSettings, withToolSettings } from '~/utils/chat/catalog/tool-settings'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('slash-command-run')

function registryWith(handler: (args: any, context: any) => unknown) {
  const registry = createToolRegistry()
  registry.registerTool({
    type: 'function',
    function: {
      name: 'multiply',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
    },
    catalog: { commandName: 'mul', settings: { rounding: { type: 'number', default: 0, minimum: 0, maximum: 10 } } },
  }, handler)
  return registry
}

describe('runToolCommand', () => {
  it('stores the line, a tool call and its result, which the next request replays as a valid strict history', async () => {
    const thread = await createThread()
    const registry = registryWith(({ a, b }) => a * b)
    const result = await runToolCommand({ threadId: thread.id, toolName: 'multiply', args: { a: 12, b: 7 }, line: '/mul a=12 b=7', registry })
    expect(result).toMatchObject({ status: 'done', content: '84' })

    const rows = await listMessages(thread.id)
    expect(rows.map(row => row.role)).toEqual(['user', 'assistant', 'tool'])
    expect(rows[2]).toMatchObject({ toolName: 'multiply', toolStatus: 'done', content: '84', status: 'complete' })
    const history = [...toModelMessages(rows), { role: 'user' as const, content: 'And doubled?' }]
    expect(validateStrictHistory(history)).toEqual([])
    expect(history[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: rows[1]!.toolCalls![0]!.id, type: 'function', function: { name: 'multiply', arguments: '{"a":12,"b":7}' } }] })
    expect(history[2]).toMatchObject({ role: 'tool', name: 'multiply', content: '84' })
  })

  it('checks the arguments like a model call: a wrong one is an error result on the card, not a crash', async () => {
    const thread = await createThread()
    const result = await runToolCommand({ threadId: thread.id, toolName: 'multiply', args: { a: 'twelve', b: 7 }, line: '/mul', registry: registryWith(() => 0) })
    expect(result.status).toBe('error')
    expect(result.content).toMatch(/invalid arguments for "multiply"/)
    const rows = await listMessages(thread.id)
    expect(rows[2]).toMatchObject({ toolStatus: 'error' })
    expect(validateStrictHistory(toModelMessages(rows))).toEqual([])
  })
})

describe('tool settings', () => {
  const schema = { units: { type: 'string' as const, enum: ['metric', 'imperial'], default: 'metric' }, limit: { type: 'number' as const, minimum: 1, maximum: 5 } }

  it('hands the saved settings to the handler as context.settings', async () => {
    const store = createToolSettingsStore()
    expect(store.save('get_weather', schema, { units: 'imperial', limit: 3 })).toEqual({ ok: true })
    let seen: unknown
    const tools = withToolSettings(toolSetFromArray([{
      definition: { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
      handler: (_args, context) => (seen = context.settings),
    }]), name => (name === 'get_weather' ? schema : undefined), store)
    const { executeToolCalls } = await import('#shared/tools/execute-tool-calls')
    await executeToolCalls([{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }], tools, { threadId: 't' })
    expect(seen).toEqual({ units: 'imperial', limit: 3 })
  })

  it('refuses values that do not fit the schema, and reads a stale saved value as the default', () => {
    const storage = new Map<string, string>()
    const fake = { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => void storage.set(key, value) } as Storage
    const store = createToolSettingsStore({ storage: fake })
    expect(store.save('get_weather', schema, { units: 'kelvin', limit: 99 })).toEqual({
      ok: false, errors: { units: 'units must be one of metric, imperial', limit: 'limit must be a number' },
    })
    expect(store.get('get_weather', schema)).toEqual({ units: 'metric' })
    storage.set('plugboard:tool-settings:v1', JSON.stringify({ version: 1, settings: { get_weather: { units: '<script>', limit: 2 } } }))
    expect(createToolSettingsStore({ storage: fake }).get('get_weather', schema)).toEqual({ units: 'metric', limit: 2 })
    expect(resolveToolSettings(schema, { __proto__: { units: 'imperial' } } as never)).toEqual({ units: 'metric' })
  })
})
