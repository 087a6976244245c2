import * as z from 'zod/mini'
import { isRecord } from '#shared/types/is-record'
import type { ToolSettingField, ToolSettingsSchema } from '#shared/types/rich-tool-definition'
import type { ExecutableTool, ToolSet } from '#shared/tools/tool-types'
import { getToolRegistry } from '../registry/tool-registry-singleton'
import { persistedSetting } from '../persisted-setting'

/** The one localStorage key holding every tool's settings. Bump the suffix on a format change. */
export const TOOL_SETTINGS_STORAGE_KEY = 'plugboard:tool-settings:v1'
/** Longest string setting kept, in characters. */
export const MAX_SETTING_LENGTH = 2_000

export type ToolSettingValues = Readonly<Record<string, string | number | boolean>>

/** A value that fits its field, or undefined: wrong type, not in the enum, out of bounds, too long. */
export function checkSettingValue(field: ToolSettingField, value: unknown): string | number | boolean | undefined {
  if (field.type === 'boolean') return typeof value === 'boolean' ? value : undefined
  if (field.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return undefined
    if ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum)) return undefined
  }
  else if (typeof value !== 'string' || value.length > MAX_SETTING_LENGTH) return undefined
  if (field.enum && !field.enum.includes(value as string | number)) return undefined
  return value as string | number
}

/** The settings a handler gets: each saved value that still fits its field, else the field's default. */
export function resolveToolSettings(schema: ToolSettingsSchema | undefined, saved: Record<string, unknown> | undefined): ToolSettingValues {
  const values: Record<string, string | number | boolean> = {}
  for (const [key, field] of Object.entries(schema ?? {})) {
    // own values only: nothing inherited (a `__proto__` in stored JSON) is taken for a setting
    const value = checkSettingValue(field, saved && Object.hasOwn(saved, key) ? saved[key] : undefined) ?? field.default
    if (value !== undefined) values[key] = value
  }
  return Object.freeze(values)
}

export interface ToolSettingsStore {
  /** The resolved settings of a tool for its schema. */
  get: (toolName: string, schema: ToolSettingsSchema | undefined) => ToolSettingValues
  /** Saves a tool's settings; values that do not fit the schema are refused with the reason. */
  save: (toolName: string, schema: ToolSettingsSchema | undefined, values: Record<string, unknown>) => { ok: true } | { ok: false, errors: Record<string, string> }
}

type SavedToolSettings = Readonly<Record<string, Readonly<Record<string, unknown>>>>

/** `{ version: 1, settings: { [tool]: values } }`; values are checked against the tool's schema when read. */
const storedSettingsSchema = z.object({
  version: z.literal(1),
  settings: z.pipe(z.record(z.string(), z.unknown()), z.transform((settings) => {
    // prototype-less: a tool named '__proto__' or 'constructor' is a plain key
    const kept: Record<string, Record<string, unknown>> = Object.create(null)
    for (const [tool, values] of Object.entries(settings)) if (isRecord(values)) kept[tool] = values
    return kept as SavedToolSettings
  })),
})
const noSettings = (): z.infer<typeof storedSettingsSchema> => ({ version: 1, settings: Object.create(null) })

/**
 * Per-tool settings saved in localStorage (`plugboard:tool-settings:v1`), reactive, followed across tabs, and
 * checked against the schema both when saved and when read (a stored value that no longer fits falls back to the
 * default).
 */
export function createToolSettingsStore(options: { storage?: Storage | null, key?: string } = {}): ToolSettingsStore {
  const { storage = null, key = TOOL_SETTINGS_STORAGE_KEY } = options
  const saved = persistedSetting(key, { schema: storedSettingsSchema, defaults: noSettings, label: 'tool settings', storage })
  return {
    get(toolName, schema) {
      const settings = saved.state.value.settings
      return resolveToolSettings(schema, Object.hasOwn(settings, toolName) ? settings[toolName] : undefined)
    },
    save(toolName, schema, values) {
      const errors: Record<string, string> = {}
      const clean: Record<string, unknown> = {}
      for (const [name, field] of Object.entries(schema ?? {})) {
        if (values[name] === undefined) continue
        const value = checkSettingValue(field, values[name])
        if (value === undefined) errors[name] = `${field.label ?? name} must be ${field.enum ? `one of ${field.enum.join(', ')}` : `a ${field.type}`}`
        else clean[name] = value
      }
      if (Object.keys(errors).length > 0) return { ok: false, errors }
      // merged into what is saved now, so another tab's settings of other tools are kept
      saved.update(current => ({ version: 1, settings: Object.assign(Object.create(null), current.settings, { [toolName]: clean }) }))
      return { ok: true }
    },
  }
}

const STORE_KEY = Symbol.for('plugboard.toolSettings')

/** The app's one settings store (on globalThis, so hot reload keeps it). In-memory where there is no window. */
export function getToolSettingsStore(): ToolSettingsStore {
  const holder = globalThis as typeof globalThis & { [STORE_KEY]?: ToolSettingsStore }
  if (typeof window === 'undefined') return createToolSettingsStore()
  let storage: Storage | null = null
  try {
    storage = window.localStorage
  }
  catch {}
  return (holder[STORE_KEY] ??= createToolSettingsStore({ storage }))
}

/**
 * The same tool set, with each tool's settings attached so the executor hands them to the handler as
 * `context.settings`. `schemaOf` gives a tool's settings schema (undefined: no settings).
 */
export function withToolSettings(tools: ToolSet, schemaOf: (name: string) => ToolSettingsSchema | undefined,
  store: ToolSettingsStore = getToolSettingsStore()): ToolSet {
  return {
    // read through: a wrapped set may offer more tools as the run goes on (read_tool_result once a result was cut)
    get definitions() {
      return tools.definitions
    },
    get(name) {
      const tool = tools.get(name)
      if (!tool) return undefined
      const schema = schemaOf(name)
      return schema ? { ...tool, settings: store.get(name, schema) } satisfies ExecutableTool : tool
    },
  }
}

/** A registered tool's settings schema (its `catalog.settings`), from the app's registry. */
export function settingsSchemaOf(name: string): ToolSettingsSchema | undefined {
  return getToolRegistry().getTool(name)?.catalog?.settings
}
