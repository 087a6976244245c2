import { effectScope, watch } from 'vue'
import * as z from 'zod/mini'
import { tryParseJson } from '#shared/security/parse-json'
import { persistedSetting } from '../persisted-setting'
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
 * `{ version: 1, states }`. Non-boolean values are dropped rather than trusted; the states have no prototype, so no
 * key (`__proto__` included) can reach Object.prototype.
 */
const storedToolStatesSchema = z.object({
  version: z.literal(1),
  states: z.pipe(z.record(z.string(), z.unknown()), z.transform((states) => {
    const clean: ToolStates = Object.create(null)
    for (const [name, value] of Object.entries(states)) if (typeof value === 'boolean') clean[name] = value
    return clean
  })),
})
const noStates = (): StoredToolStates => ({ version: 1, states: Object.create(null) })

/** Parse the stored text. Returns the states, or an error message for text that is not ours. */
export function parseToolStates(text: string | null): { states: ToolStates } | { error: string } {
  if (text === null || text === '') return noStates()
  const parsed = tryParseJson(text)
  if (!parsed.ok) return { error: 'not valid JSON' }
  const checked = storedToolStatesSchema.safeParse(parsed.value)
  return checked.success ? { states: checked.data.states } : { error: checked.error.issues[0]!.message }
}

/**
 * Debounced, merging persistence of enabled choices. A write re-reads the key and only changes the names
 * chosen here since the last write, so choices of tools that are not registered (yet), or made in another tab,
 * are never wiped.
 */
export function createToolStatePersistence(options: ToolStatePersistenceOptions): ToolStatePersistence {
  const { storage, key = TOOL_STATES_STORAGE_KEY, debounceMs = 150, onExternalChange } = options
  const saved = persistedSetting(key, { schema: storedToolStatesSchema, defaults: noStates, label: 'tool states', storage })
  const pending = new Map<string, boolean>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let writing = false

  function flush() {
    clearTimeout(timer)
    timer = undefined
    if (!storage || pending.size === 0) return
    const chosen = Object.fromEntries(pending)
    pending.clear()
    writing = true
    try {
      saved.update(current => ({ version: 1, states: Object.assign(Object.create(null), current.states, chosen) }))
    }
    finally {
      writing = false
    }
  }

  const scope = effectScope(true)
  scope.run(() => watch(saved.state, (stored) => {
    // choices made here and not written yet win over the other tab's
    if (!writing) onExternalChange?.({ ...stored.states, ...Object.fromEntries(pending) })
  }, { flush: 'sync' }))

  const target = storage && typeof window !== 'undefined' ? window : undefined
  target?.addEventListener('pagehide', flush)

  return {
    // a fresh object without prototype on every call: callers may keep and change it
    read: () => Object.assign(Object.create(null), saved.state.value.states),
    save(name, enabled) {
      if (!storage) return
      pending.set(name, enabled)
      clearTimeout(timer)
      timer = setTimeout(flush, debounceMs)
    },
    flush,
    dispose() {
      flush()
      scope.stop()
      saved.dispose()
      target?.removeEventListener('pagehide', flush)
    },
  }
}
