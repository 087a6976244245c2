import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { TOOL_STATES_STORAGE_KEY } from '~/utils/chat/registry/tool-state-storage'
import type { ToolRegistry } from '~/utils/chat/registry/tool-registry-types'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'

const noop = () => 'ok'
const registries: ToolRegistry[] = []

function openTab(): ToolRegistry {
  const registry = createToolRegistry({ storage: window.localStorage })
  registry.registerTool({ type: 'function', function: { name: 'calculate' } }, noop)
  registry.registerTool({ type: 'function', function: { name: 'get_weather' }, defaultEnabled: false }, noop)
  registries.push(registry)
  return registry
}

/** What the browser does in every other tab after a write: jsdom does not cross tabs, so we dispatch it. */
function deliverStorageEvent(oldValue: string | null) {
  window.dispatchEvent(new StorageEvent('storage', {
    key: TOOL_STATES_STORAGE_KEY, oldValue, newValue: localStorage.getItem(TOOL_STATES_STORAGE_KEY), storageArea: localStorage,
  }))
}

beforeEach(() => {
  localStorage.clear()
  vi.useFakeTimers()
})
afterEach(() => {
  registries.splice(0).forEach(registry => registry.dispose())
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('tool states across tabs and reloads', () => {
  it('shows a toggle made in one tab in the other', () => {
    const first = openTab()
    const second = openTab()
    first.setEnabled('calculate', false)
    first.setEnabled('get_weather', true)
    vi.runAllTimers()
    deliverStorageEvent(null)
    expect(second.getTool('calculate')!.enabled.value).toBe(false)
    expect(second.getTool('get_weather')!.enabled.value).toBe(true)
    expect(second.getEnabledDefinitions().map(definition => definition.function.name)).toEqual(['get_weather'])
  })

  it('keeps a choice not yet written in this tab over the other tab\'s', () => {
    const first = openTab()
    const second = openTab()
    second.setEnabled('calculate', true)
    localStorage.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states: { calculate: false } }))
    deliverStorageEvent(null)
    expect(second.getTool('calculate')!.enabled.value).toBe(true)
    expect(first.getTool('calculate')!.enabled.value).toBe(false)
  })

  it('ignores storage events for other keys and corrupt values', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const tab = openTab()
    window.dispatchEvent(new StorageEvent('storage', { key: 'other', newValue: '{"version":1,"states":{"calculate":false}}', storageArea: localStorage }))
    localStorage.setItem(TOOL_STATES_STORAGE_KEY, 'not json')
    deliverStorageEvent(null)
    expect(tab.getTool('calculate')!.enabled.value).toBe(true)
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('keeps the choice after a reload', () => {
    openTab().setEnabled('calculate', false)
    vi.runAllTimers()
    expect(openTab().getTool('calculate')!.enabled.value).toBe(false)
  })

  it('writes a pending choice when the page is hidden, before the debounce ends', () => {
    openTab().setEnabled('get_weather', true)
    window.dispatchEvent(new Event('pagehide'))
    expect(JSON.parse(localStorage.getItem(TOOL_STATES_STORAGE_KEY)!)).toEqual({ version: 1, states: { get_weather: true } })
  })

  it('stops listening to other tabs after dispose', () => {
    const tab = openTab()
    tab.dispose()
    localStorage.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states: { calculate: false } }))
    deliverStorageEvent(null)
    expect(tab.getTool('calculate')!.enabled.value).toBe(true)
  })
})

describe('getToolRegistry in the browser', () => {
  it('returns one registry kept on globalThis, backed by localStorage', () => {
    localStorage.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states: { saved_off: false } }))
    const registry = getToolRegistry()
    expect(getToolRegistry()).toBe(registry)
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('plugboard.toolRegistry')]).toBe(registry)
    const dispose = registry.registerTool({ type: 'function', function: { name: 'saved_off' } }, noop)
    expect(registry.getTool('saved_off')!.enabled.value).toBe(false)
    dispose()
  })
})
