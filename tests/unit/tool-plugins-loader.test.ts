import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineTool } from '../../shared/tools/definition/define-tool'
import { loadToolPlugins } from '~/utils/chat/registry/load-tool-plugins'
import { createToolRegistry } from '~/utils/chat/tool-registry'

const plugin = (name: string) => async () => ({ default: defineTool({ name, description: name, handler: () => name }) })

afterEach(() => {
  vi.restoreAllMocks()
})

describe('loadToolPlugins', () => {
  it('registers one tool per file, in file-name order, skipping files that start with _', async () => {
    const registry = createToolRegistry()
    const result = await loadToolPlugins({
      '../../plugins/zeta.ts': plugin('zeta'),
      '../../plugins/_draft.ts': plugin('draft'),
      '../../plugins/alpha.ts': plugin('alpha'),
    }, registry)
    expect(result.loaded).toEqual(['alpha', 'zeta'])
    expect(registry.listTools().value.map(tool => tool.name)).toEqual(['alpha', 'zeta'])
  })

  it('logs a file that fails to import and still loads the others', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const registry = createToolRegistry()
    const result = await loadToolPlugins({
      '../../plugins/broken.ts': () => Promise.reject(new Error('Unexpected token }')),
      '../../plugins/good.ts': plugin('good'),
    }, registry)
    expect(registry.getTool('good')).toBeDefined()
    expect(result.failed).toEqual([{ file: 'broken.ts', reason: 'Unexpected token }' }])
    expect(error).toHaveBeenCalledWith('Failed to load tool plugin plugins/broken.ts: Unexpected token }', expect.any(Error))
  })

  it('logs a file whose default export is not a tool', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const registry = createToolRegistry()
    await loadToolPlugins({
      '../../plugins/plain.ts': async () => ({ default: { name: 'plain' } }),
      '../../plugins/nothing.ts': async () => ({}),
      '../../plugins/ok.ts': plugin('ok'),
    }, registry)
    expect(registry.listTools().value.map(tool => tool.name)).toEqual(['ok'])
    expect(error.mock.calls.map(call => call[0])).toEqual([
      'Failed to load tool plugin plugins/nothing.ts: the default export is not a tool made with defineTool() (export default defineTool({ ... }))',
      'Failed to load tool plugin plugins/plain.ts: the default export is not a tool made with defineTool() (export default defineTool({ ... }))',
    ])
  })

  it('logs an invalid definition and a duplicate name with the registry\'s reason', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const registry = createToolRegistry()
    await loadToolPlugins({
      '../../plugins/bad-name.ts': plugin('bad name'),
      '../../plugins/first.ts': plugin('same'),
      '../../plugins/second.ts': plugin('same'),
    }, registry)
    expect(registry.listTools().value.map(tool => tool.name)).toEqual(['same'])
    expect(error.mock.calls.map(call => call[0])).toEqual([
      'Failed to load tool plugin plugins/bad-name.ts: Tool "bad name": function.name must be 1 to 64 letters, digits, "_" or "-" (OpenAI\'s rule ^[a-zA-Z0-9_-]{1,64}$)',
      'Failed to load tool plugin plugins/second.ts: Tool "same" is already registered. Pick another name, or pass { override: true } to replace it.',
    ])
  })

  it('unregisters the tools it loaded on dispose, so a reload can register them again', async () => {
    const registry = createToolRegistry()
    const modules = { '../../plugins/a.ts': plugin('a') }
    const first = await loadToolPlugins(modules, registry)
    first.dispose()
    expect(registry.listTools().value).toEqual([])
    await loadToolPlugins(modules, registry)
    expect(registry.getTool('a')).toBeDefined()
  })

  it('loads the real plugins folder', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const registry = createToolRegistry()
    const result = await loadToolPlugins(import.meta.glob('../../plugins/*.ts'), registry)
    expect(result.failed).toEqual([])
    expect(error).not.toHaveBeenCalled()
    expect(result.loaded).toEqual(['calculate', 'get_current_time', 'get_weather', 'search_chat_history', 'search_documents'])
    expect(registry.getTool('get_weather')!.enabled.value).toBe(false)
  })
})
