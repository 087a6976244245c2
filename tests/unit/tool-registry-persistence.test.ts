import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { TOOL_STATES_STORAGE_KEY } from '~/utils/chat/registry/tool-state-storage'
import type { RegisterableToolDefinition } from '~/utils/chat/registry/tool-registry-types'

/** A Storage kept in memory that counts writes. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>()
  writes = 0
  get length() { return this.items.size }
  clear() { this.items.clear() }
  getItem(key: string) { return this.items.get(key) ?? null }
  key(index: number) { return [...this.items.keys()][index] ?? null }
  removeItem(key: string) { this.items.delete(key) }
  setItem(key: string, value: string) {
    this.writes++
    this.items.set(key, String(value))
  }
}

const tool = (name: string, extra: Partial<RegisterableToolDefinition> = {}): RegisterableToolDefinition =>
  ({ type: 'function', function: { name }, ...extra })
const noop = () => 'ok'
const saved = (storage: Storage) => JSON.parse(storage.getItem(TOOL_STATES_STORAGE_KEY)!)

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('tool state persistence', () => {
  it('saves choices under the versioned key after the debounce, in one write', () => {
    const storage = new MemoryStorage()
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('a'), noop)
    registry.registerTool(tool('b'), noop)
    registry.setEnabled('a', false)
    registry.setEnabled('b', false)
    registry.setEnabled('b', true)
    vi.advanceTimersByTime(149)
    expect(storage.getItem(TOOL_STATES_STORAGE_KEY)).toBeNull()
    vi.advanceTimersByTime(1)
    expect(storage.writes).toBe(1)
    expect(saved(storage)).toEqual({ version: 1, states: { a: false, b: true } })
  })

  it('restores a saved choice when the tool registers, over its default', () => {
    const storage = new MemoryStorage()
    storage.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states: { weather: true, calc: false } }))
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('weather', { defaultEnabled: false }), noop)
    registry.registerTool(tool('calc'), noop)
    expect(registry.getTool('weather')!.enabled.value).toBe(true)
    expect(registry.getTool('calc')!.enabled.value).toBe(false)
  })

  it('never wipes the saved choice of a tool that is not registered', () => {
    const storage = new MemoryStorage()
    storage.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states: { uninstalled: false } }))
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('present'), noop)
    registry.setEnabled('present', false)
    vi.runAllTimers()
    expect(saved(storage).states).toEqual({ uninstalled: false, present: false })
  })

  it('merges with choices another tab wrote since start-up', () => {
    const storage = new MemoryStorage()
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('mine'), noop)
    storage.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states: { theirs: false } }))
    registry.setEnabled('mine', false)
    vi.runAllTimers()
    expect(saved(storage).states).toEqual({ theirs: false, mine: false })
  })

  it('does not write when nothing changed', () => {
    const storage = new MemoryStorage()
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('a'), noop)
    registry.setEnabled('ghost', false)
    vi.runAllTimers()
    expect(storage.writes).toBe(0)
  })

  it('writes pending choices at once on flush', () => {
    const storage = new MemoryStorage()
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('a'), noop)
    registry.setEnabled('a', false)
    registry.flush()
    expect(saved(storage).states).toEqual({ a: false })
  })

  it.each([
    ['not JSON', '{oops'],
    ['a foreign object', JSON.stringify({ hello: 'world' })],
    ['another version', JSON.stringify({ version: 2, states: { a: false } })],
    ['states as an array', JSON.stringify({ version: 1, states: [false] })],
  ])('ignores %s with one warning and keeps working', (_label, text) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const storage = new MemoryStorage()
    storage.setItem(TOOL_STATES_STORAGE_KEY, text)
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('a'), noop)
    expect(registry.getTool('a')!.enabled.value).toBe(true)
    registry.setEnabled('a', false)
    vi.runAllTimers()
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toContain(`ignoring the saved tool states under "${TOOL_STATES_STORAGE_KEY}"`)
    expect(saved(storage)).toEqual({ version: 1, states: { a: false } })
  })

  it('drops non-boolean values and __proto__ from saved states', () => {
    const storage = new MemoryStorage()
    storage.setItem(TOOL_STATES_STORAGE_KEY, '{"version":1,"states":{"a":"no","__proto__":{"polluted":true},"b":false}}')
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('a'), noop)
    registry.registerTool(tool('b'), noop)
    expect(registry.getTool('a')!.enabled.value).toBe(true)
    expect(registry.getTool('b')!.enabled.value).toBe(false)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('keeps the choice for the session when storage refuses to write', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const storage = new MemoryStorage()
    storage.setItem = () => { throw new Error('QuotaExceededError') }
    const registry = createToolRegistry({ storage })
    registry.registerTool(tool('a'), noop)
    registry.setEnabled('a', false)
    vi.runAllTimers()
    expect(registry.getTool('a')!.enabled.value).toBe(false)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('cannot save tool states (QuotaExceededError)'))
  })

  it('uses a custom storage key', () => {
    const storage = new MemoryStorage()
    const registry = createToolRegistry({ storage, storageKey: 'custom' })
    registry.registerTool(tool('a'), noop)
    registry.setEnabled('a', false)
    vi.runAllTimers()
    expect(JSON.parse(storage.getItem('custom')!).states).toEqual({ a: false })
    expect(storage.getItem(TOOL_STATES_STORAGE_KEY)).toBeNull()
  })
})
