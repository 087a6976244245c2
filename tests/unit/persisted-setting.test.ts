import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { persistedSetting, persistedSettingNotices } from '~/utils/chat/persisted-setting'
import { createToolPolicies, TOOL_POLICIES_STORAGE_KEY } from '~/utils/chat/approvals/tool-policies'
import { createToolSettingsStore, TOOL_SETTINGS_STORAGE_KEY } from '~/utils/chat/catalog/tool-settings'
import { MCP_SERVERS_STORAGE_KEY, readMcpServerSettings } from '~/utils/chat/mcp/mcp-server-settings'

function memoryStorage(items: Record<string, string> = {}) {
  const map = new Map(Object.entries(items))
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  }
}

const schema = z.object({ theme: z.enum(['light', 'dark']) })
const defaults = () => ({ theme: 'light' as const })

afterEach(() => {
  persistedSettingNotices.value = []
  vi.restoreAllMocks()
})

describe('a persisted setting', () => {
  it('reads what is saved and saves what is assigned, under its key', () => {
    const storage = memoryStorage({ look: '{"theme":"dark"}' })
    const setting = persistedSetting('look', { schema, defaults, label: 'look', storage })
    expect(setting.state.value).toEqual({ theme: 'dark' })
    setting.state.value = { theme: 'light' }
    expect(storage.getItem('look')).toBe('{"theme":"light"}')
  })

  it('writes nothing while the default is in use', () => {
    const storage = memoryStorage()
    persistedSetting('look', { schema, defaults, label: 'look', storage })
    expect(storage.getItem('look')).toBeNull()
  })

  it.each([
    ['text that is not JSON', '{"theme":', 'not valid JSON'],
    ['a value of the wrong shape', '{"theme":"neon"}', 'theme:'],
  ])('resets %s to the default and tells the user, without throwing', (_label, text, reason) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const setting = persistedSetting('look', { schema, defaults, label: 'look', storage: memoryStorage({ look: text }) })
    expect(setting.state.value).toEqual({ theme: 'light' })
    expect(persistedSettingNotices.value).toEqual([expect.stringContaining(`Your saved look could not be read (${reason}`)])
  })

  it('merges an update into what another tab saved meanwhile', () => {
    const storage = memoryStorage()
    const setting = persistedSetting('list', { schema: z.array(z.string()), defaults: () => [] as string[], label: 'list', storage })
    storage.setItem('list', '["theirs"]')
    setting.update(current => [...current, 'mine'])
    expect(storage.getItem('list')).toBe('["theirs","mine"]')
  })

  it('keeps the value in memory where there is no storage', () => {
    const setting = persistedSetting('look', { schema, defaults, label: 'look', storage: null })
    setting.update(() => ({ theme: 'dark' }))
    expect(setting.state.value).toEqual({ theme: 'dark' })
  })
})

describe('settings saved by earlier versions still load', () => {
  it('tool policies, tool settings and MCP servers under their v1 keys', () => {
    const storage = memoryStorage({
      [TOOL_POLICIES_STORAGE_KEY]: '{"version":1,"policies":{"get_weather":"never","calculate":"ask"}}',
      [TOOL_SETTINGS_STORAGE_KEY]: '{"version":1,"settings":{"get_weather":{"units":"imperial"}}}',
      [MCP_SERVERS_STORAGE_KEY]: '[{"id":"1","name":"Docs","url":"https://docs.example/mcp","token":"t0k"}]',
    }) as unknown as Storage
    const registry = { getTool: () => undefined }
    expect(createToolPolicies({ storage, registry }).policiesFor(['get_weather', 'calculate'])).toEqual({ get_weather: 'never', calculate: 'ask' })
    const units = { units: { type: 'string' as const, enum: ['metric', 'imperial'], default: 'metric' } }
    expect(createToolSettingsStore({ storage }).get('get_weather', units)).toEqual({ units: 'imperial' })
    expect(readMcpServerSettings(storage)).toEqual([{ id: '1', name: 'Docs', url: 'https://docs.example/mcp', token: 't0k' }])
    expect(persistedSettingNotices.value).toEqual([])
  })

  it('a stored __proto__ or constructor key is dropped, not merged into a prototype', () => {
    const storage = memoryStorage({
      [TOOL_POLICIES_STORAGE_KEY]: '{"version":1,"policies":{"__proto__":{"polluted":"never"},"constructor":"ask","calculate":"never"}}',
    }) as unknown as Storage
    const policies = createToolPolicies({ storage, registry: { getTool: () => undefined } })
    expect(policies.policyOf('calculate')).toBe('never')
    expect(policies.policyOf('constructor')).toBe('auto')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
