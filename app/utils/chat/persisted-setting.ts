import './zod-without-eval'
import { effectScope, shallowRef } from 'vue'
import type { ShallowRef } from 'vue'
import { useStorage } from '@vueuse/core'
import type { StorageLike } from '@vueuse/core'
import { safeParse } from 'zod/mini'
import type { core } from 'zod/mini'
import { tryParseJson } from '#shared/security/parse-json'

export interface PersistedSettingOptions<T> {
  /** The saved value's shape. A value that fails it (or is not JSON) reads as the default, with a notice. */
  schema: core.$ZodType<T>
  /** The value while nothing valid is saved; called for a fresh copy each time. */
  defaults: () => T
  /** What the notice and the console call it, e.g. 'tool policies'. */
  label: string
  /** Where to save; `null` keeps the value in memory. @default window.localStorage in the browser, else null */
  storage?: StorageLike | null
}

export interface PersistedSetting<T> {
  /** The value. Assign a new one to save it (at once); writes of other tabs arrive here. */
  state: ShallowRef<T>
  /** Saves `change` applied to what is stored now, so a write of another tab that has not arrived yet is kept. */
  update: (change: (current: T) => T) => void
  /** Stops following other tabs. */
  dispose: () => void
}

/** Sentences for the user: saved settings that could not be read and were reset to their defaults. */
export const persistedSettingNotices = shallowRef<readonly string[]>([])

const reported = new Map<string, string>()

function report(key: string, label: string, raw: string, reason: string) {
  if (reported.get(key) === raw) return
  reported.set(key, raw)
  console.warn(`[plugboard] ignoring the saved ${label} under "${key}": ${reason}`)
  const notice = `Your saved ${label} could not be read (${reason}), so the defaults are in use until you change them.`
  if (!persistedSettingNotices.value.includes(notice)) persistedSettingNotices.value = [...persistedSettingNotices.value, notice]
}

/**
 * The value `raw` (the text stored under `key`) holds: parsed without prototype keys and checked against the
 * schema. Text that fails reads as the default, and the user is told (once per text).
 */
export function readPersistedSetting<T>(raw: string | null, key: string, options: Pick<PersistedSettingOptions<T>, 'schema' | 'defaults' | 'label'>): T {
  if (raw === null) return options.defaults()
  const parsed = tryParseJson(raw)
  if (!parsed.ok) {
    report(key, options.label, raw, 'not valid JSON')
    return options.defaults()
  }
  const checked = safeParse(options.schema, parsed.value)
  if (checked.success) return checked.data
  const issue = checked.error.issues[0]!
  report(key, options.label, raw, `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
  return options.defaults()
}

function browserStorage(): StorageLike | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  }
  catch {
    // blocked (private mode, sandboxed frame): the settings hold for this session
    return null
  }
}

/**
 * A setting saved in localStorage under `key` as JSON, on VueUse's `useStorage` (which follows other tabs through
 * the `storage` event). The stored text is input like any other: it is parsed without prototype keys and checked
 * against `schema`; what fails is never thrown at the app but read as the default, and the user is told once.
 */
export function persistedSetting<T>(key: string, options: PersistedSettingOptions<T>): PersistedSetting<T> {
  const { defaults, label } = options
  const storage = options.storage === undefined ? browserStorage() : options.storage
  if (!storage) {
    const state = shallowRef(defaults())
    return { state, update: change => (state.value = change(state.value)), dispose: () => {} }
  }

  const read = (raw: string) => readPersistedSetting(raw, key, options)
  const scope = effectScope(true)
  const state = scope.run(() => useStorage<T>(key, defaults, storage, {
    shallow: true,
    deep: false,
    flush: 'sync',
    writeDefaults: false,
    serializer: { read, write: value => JSON.stringify(value) },
    onError: error => console.warn(`[plugboard] cannot save ${label} (${(error as Error).message ?? String(error)})`),
  }))! as ShallowRef<T>

  return {
    state,
    update(change) {
      let raw: string | null = null
      try {
        raw = storage.getItem(key)
      }
      catch {}
      state.value = change(raw === null ? defaults() : read(raw))
    },
    dispose: () => scope.stop(),
  }
}
