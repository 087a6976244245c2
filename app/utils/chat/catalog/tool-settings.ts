import { shallowReactive } from 'vue'
import type { ToolSettingField, ToolSettingsSchema } from '#shared/types/rich-tool-definition'
import type { ExecutableTool, ToolSet } from '#shared/tools/tool-types'
import { getToolRegistry } from '../registry/tool-registry-singleton'

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

function readAll(storage: Storage | null, key: string): Record<string, Record<string, unknown>> {
  try {
    const data = JSON.parse(storage?.getItem(key) ?? 'null') as unknown
    const settings = (data as { version?: unknown, settings?: unknown } | null)?.settings
    if ((data as { version?: unknown } | null)?.version !== 1 || typeof settings !== 'object' || settings === null) return Object.create(null)
    // copied into a prototype-less object: a tool named '__proto__' is a plain key
    return Object.assign(Object.create(null), settings)
  }
  catch {
    return Object.create(null)
  }
}

/**
 * Per-tool settings saved in localStorage (`plugboard:tool-settings:v1`), reactive, and checked against the schema
 * both when saved and when read (a stored value that no longer fits falls back to the default).
 */
export function createToolSettingsStore(options: { storage?: Storage | null, key?: string } = {}): ToolSettingsStore {
  const { storage = null, key = TOOL_SETTINGS_STORAGE_KEY } = options
  const saved = shallowReactive(readAll(storage, key) as Record<string, Record<string, unknown>>)
  return {
    get: (toolName, schema) => resolveToolSettings(schema, Object.hasOwn(saved, toolName) ? saved[toolName] : undefined),
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
      saved[toolName] = clean
      try {
        storage?.setItem(key, JSON.stringify({ version: 1, settings: { ...readAll(storage, key), [toolName]: clean } }))
      }
      catch (error) {
        // quota or private mode: the settings still hold for this session
        console.warn(`[plugboard] cannot save tool settings (${(error as Error).message})`)
      }
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
