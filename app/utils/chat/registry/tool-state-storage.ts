import type { ToolStates } from './tool-registry-types'

/** The one localStorage key holding enabled choices. Bump the suffix (and `version`) on a format change. */
export const TOOL_STATES_STORAGE_KEY = 'plugboard:tool-states:v1'

/** What is stored under the key. */
export interface StoredToolStates {
  version: 1
  states: ToolStates
}

export interface ToolStatePersistenceOptions {
  /** Where to save. `null` turns persistence off. */
  storage: Storage | null
  /** @default TOOL_STATES_STORAGE_KEY */
  key?: string
  /** Delay that groups quick toggles into one write. @default 150 */
  debounceMs?: number
  /** Called with the saved states when another tab changes them (the `storage` event). */
  onExternalChange?: (states: ToolStates) => void
}

export interface ToolStatePersistence {
  /** Read and validate the saved states. Corrupt or foreign data warns once and reads as `{}`. */
  read: () => ToolStates
  /** Remember one choice; written after `debounceMs`, merged into what is saved then. */
  save: (name: string, enabled: boolean) => void
  /** Write pending choices now (also done on `pagehide`). */
  flush: () => void
  dispose: () => void
}

/**
 * Parse the stored text. Returns the states, or an error message for text that is not ours.
 * Non-boolean values are dropped rather than trusted; the result has no prototype, so no key (`__proto__`
 * included) can reach Object.prototype.
 */
export function parseToolStates(text: string | null): { states: ToolStates } | { error: string } {
  if (text === null || text === '') return { states: Object.create(null) }
  let data: unknown
  try {
    data = JSON.parse(text)
  }
  catch {
    return { error: 'not valid JSON' }
  }
  if (typeof data !== 'object' || data === null || (data as { version?: unknown }).version !== 1) {
    return { error: 'not a { version: 1, states } object' }
  }
  const states = (data as { states?: unknown }).states
  if (typeof states !== 'object' || states === null || Array.isArray(states)) return { error: '`states` is not an object' }
  const clean: ToolStates = Object.create(null)
  for (const [name, value] of Object.entries(states)) {
    if (typeof value === 'boolean') clean[name] = value
  }
  return { states: clean }
}

/**
 * Debounced, merging persistence of enabled choices. A write re-reads the key and only changes the names
 * chosen here since the last write, so choices of tools that are not registered (yet), or made in another tab,
 * are never wiped.
 */
export function createToolStatePersistence(options: ToolStatePersistenceOptions): ToolStatePersistence {
  const { storage, key = TOOL_STATES_STORAGE_KEY, debounceMs = 150, onExternalChange } = options
  const pending = new Map<string, boolean>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastWarnedText: string | null | undefined
  let warnedWrite = false

  /** A fresh object without prototype on every call: callers may keep and change it. */
  function read(): ToolStates {
    if (!storage) return Object.create(null)
    let text: string | null
    try {
      text = storage.getItem(key)
    }
    catch (error) {
      warnOnce(`cannot read localStorage (${(error as Error).message})`, null)
      return Object.create(null)
    }
    const parsed = parseToolStates(text)
    if ('error' in parsed) {
      warnOnce(`ignoring the saved tool states under "${key}": ${parsed.error}`, text)
      return Object.create(null)
    }
    return parsed.states
  }

  function warnOnce(message: string, text: string | null) {
    if (lastWarnedText === text) return
    lastWarnedText = text
    console.warn(`[plugboard] ${message}`)
  }

  function flush() {
    clearTimeout(timer)
    timer = undefined
    if (!storage || pending.size === 0) return
    const merged: StoredToolStates = { version: 1, states: { ...read(), ...Object.fromEntries(pending) } }
    pending.clear()
    try {
      storage.setItem(key, JSON.stringify(merged))
    }
    catch (error) {
      // quota or private mode: the choice still holds for this session
      if (!warnedWrite) console.warn(`[plugboard] cannot save tool states (${(error as Error).message})`)
      warnedWrite = true
    }
  }

  function save(name: string, enabled: boolean) {
    if (!storage) return
    pending.set(name, enabled)
    clearTimeout(timer)
    timer = setTimeout(flush, debounceMs)
  }

  function onStorage(event: StorageEvent) {
    if (event.key !== key || (event.storageArea && event.storageArea !== storage)) return
    const parsed = parseToolStates(event.newValue)
    if ('error' in parsed) {
      warnOnce(`ignoring tool states written by another tab: ${parsed.error}`, event.newValue)
      return
    }
    // choices made here and not written yet win over the other tab's
    onExternalChange?.({ ...parsed.states, ...Object.fromEntries(pending) })
  }

  const target = storage && typeof window !== 'undefined' ? window : undefined
  target?.addEventListener('storage', onStorage)
  target?.addEventListener('pagehide', flush)

  return {
    read,
    save,
    flush,
    dispose() {
      flush()
      target?.removeEventListener('storage', onStorage)
      target?.removeEventListener('pagehide', flush)
    },
  }
}
