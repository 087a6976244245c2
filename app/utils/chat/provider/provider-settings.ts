import type { ToolCallMode } from '#shared/loop/loop-types'
import { openRouterAttributionHeaders } from '#shared/stream/openrouter-attribution'
import type { ProviderId, ProviderSettings, ServerConfig } from './provider-types'
import { isRecord } from '#shared/types/is-record'
import { tryParseJson } from '#shared/security/parse-json'
import * as z from 'zod/mini'

/** localStorage key of the saved settings. Bump the suffix only together with `ProviderSettings.version`. */
export const PROVIDER_SETTINGS_STORAGE_KEY = 'plugboard:provider:v1'

/** Model used for OpenRouter when the server does not name one. Matches nuxt.config's public default. */
export const FALLBACK_OPENROUTER_MODEL = 'openai/gpt-4o-mini'

/** Ollama's OpenAI-compatible endpoint: the most common local server. */
export const DEFAULT_OPENAI_COMPATIBLE_BASE_URL = 'http://localhost:11434/v1'

export const OPENROUTER_API_BASE_URL = 'https://openrouter.ai/api/v1'

export const DEMO_MODEL_ID = 'plugboard/demo'

const PROVIDER_IDS: readonly ProviderId[] = ['demo', 'openrouter', 'openai-compatible']
const TOOL_CALL_MODES: readonly ToolCallMode[] = ['native', 'auto', 'text']

/**
 * Settings for a fresh install. With a server key, OpenRouter through the server proxy is the default;
 * otherwise the offline demo model is, so the app works with no key and no network.
 */
export function defaultProviderSettings(serverConfig?: ServerConfig): ProviderSettings {
  const serverKey = serverConfig?.serverKey === true
  return {
    version: 1,
    providerId: serverKey ? 'openrouter' : 'demo',
    openrouter: {
      keySource: serverKey ? 'server' : 'user',
      apiKey: '',
      model: serverConfig?.defaultModel || FALLBACK_OPENROUTER_MODEL,
    },
    openaiCompatible: { baseUrl: DEFAULT_OPENAI_COMPATIBLE_BASE_URL, apiKey: '', model: '', toolCallMode: 'auto' },
  }
}

export interface ParsedProviderSettings {
  settings: ProviderSettings
  /** Set when something stored was unreadable and defaults were used in its place; say it to the user. */
  warning?: string
}

/** The stored shape; every field may be missing (its default is used) and unknown fields are dropped. */
const storedProviderSettingsSchema = z.object({
  providerId: z.optional(z.enum(PROVIDER_IDS)),
  openrouter: z.optional(z.object({
    keySource: z.optional(z.enum(['server', 'user'])),
    apiKey: z.optional(z.string()),
    model: z.optional(z.string()),
  })),
  openaiCompatible: z.optional(z.object({
    baseUrl: z.optional(z.string()),
    apiKey: z.optional(z.string()),
    model: z.optional(z.string()),
    toolCallMode: z.optional(z.enum(TOOL_CALL_MODES)),
    textOnly: z.optional(z.boolean()),
  })),
})

/** Deletes the value at `path` (a failing field), so the rest of the stored settings can still be read. */
function dropAt(data: Record<string, unknown>, path: readonly PropertyKey[]) {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (isRecord(node) ? node[key as string] : undefined), data)
  if (isRecord(parent)) delete parent[path.at(-1) as string]
}

/**
 * Reads what `PROVIDER_SETTINGS_STORAGE_KEY` holds. Never throws: unreadable JSON, another app's data or a
 * future version give the defaults and a warning; a single bad field falls back alone, so one broken value
 * does not cost the user their saved key. Only known fields are copied (nothing else of the stored object
 * survives, `__proto__` included).
 */
export function parseStoredProviderSettings(raw: string | null | undefined, serverConfig?: ServerConfig): ParsedProviderSettings {
  const defaults = defaultProviderSettings(serverConfig)
  if (raw === null || raw === undefined || raw === '') return { settings: defaults }

  const parsed = tryParseJson(raw)
  if (!parsed.ok) return { settings: defaults, warning: 'Saved provider settings could not be read (not JSON), so the defaults are in use.' }
  const data = parsed.value
  if (!isRecord(data)) {
    return { settings: defaults, warning: 'Saved provider settings had an unexpected shape, so the defaults are in use.' }
  }
  if (data.version !== 1) {
    return { settings: defaults, warning: `Saved provider settings are of an unknown version (${String(data.version)}), so the defaults are in use.` }
  }

  const bad: string[] = []
  let checked = storedProviderSettingsSchema.safeParse(data)
  // each failing field is dropped and read again: at most one pass per field
  while (!checked.success && bad.length < 16) {
    for (const issue of checked.error.issues) {
      bad.push(String(issue.path.at(-1)))
      dropAt(data, issue.path)
    }
    checked = storedProviderSettingsSchema.safeParse(data)
  }
  const stored = checked.success ? checked.data : {}
  const settings: ProviderSettings = {
    version: 1,
    providerId: stored.providerId ?? defaults.providerId,
    openrouter: { ...defaults.openrouter, ...stored.openrouter },
    openaiCompatible: { ...defaults.openaiCompatible, ...stored.openaiCompatible },
  }
  if (bad.length === 0) return { settings }
  return { settings, warning: `Some saved provider settings were invalid (${bad.join(', ')}) and were reset to their defaults.` }
}

/** A partial update for `save()`: nested groups are merged, not replaced. */
export interface ProviderSettingsPatch {
  providerId?: ProviderId
  openrouter?: Partial<ProviderSettings['openrouter']>
  openaiCompatible?: Partial<ProviderSettings['openaiCompatible']>
}

/** `base` with `patch` applied; neither argument is changed. */
export function mergeProviderSettings(base: ProviderSettings, patch: ProviderSettingsPatch): ProviderSettings {
  return {
    version: 1,
    providerId: patch.providerId ?? base.providerId,
    openrouter: { ...base.openrouter, ...patch.openrouter },
    openaiCompatible: { ...base.openaiCompatible, ...patch.openaiCompatible },
  }
}

/** Field name → message, for the settings form. Only fields of the selected provider are checked. */
export type ProviderSettingsErrors = Partial<Record<'baseUrl' | 'model' | 'apiKey' | 'keySource', string>>

/** True for absolute http: and https: URLs. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim())
    return url.protocol === 'http:' || url.protocol === 'https:'
  }
  catch {
    return false
  }
}

/** Checks what the settings form would save. An empty object means valid. */
export function validateProviderSettings(settings: ProviderSettings, serverConfig?: ServerConfig): ProviderSettingsErrors {
  const errors: ProviderSettingsErrors = {}
  if (settings.providerId === 'openrouter') {
    const { keySource, apiKey, model } = settings.openrouter
    if (keySource === 'server' && serverConfig && !serverConfig.serverKey) {
      errors.keySource = 'This server holds no OpenRouter key. Use your own key.'
    }
    if (keySource === 'user' && !apiKey.trim()) {
      errors.apiKey = 'An OpenRouter key is required: paste one or sign in with OpenRouter.'
    }
    if (!model.trim()) errors.model = 'A model is required.'
  }
  else if (settings.providerId === 'openai-compatible') {
    const { baseUrl, model } = settings.openaiCompatible
    if (!isHttpUrl(baseUrl)) errors.baseUrl = 'The base URL must start with http:// or https:// (for example http://localhost:11434/v1).'
    if (!model.trim()) errors.model = 'A model is required.'
  }
  return errors
}

/** Everything needed to build a `ChatModel` for the selected provider. */
export interface ModelConfig {
  providerId: ProviderId
  baseURL: string
  /** Absent when the request needs no key from the browser (demo, server proxy, keyless local servers). */
  apiKey?: string
  model: string
  headers: Record<string, string>
  /** For display, e.g. 'Demo (scripted, offline)' or 'OpenRouter · openai/gpt-4o-mini'. */
  label: string
  toolCallMode: ToolCallMode
}

export interface ResolveModelConfigOptions {
  /** The app's origin (`window.location.origin`), for the routes this app serves itself. */
  origin: string
  serverConfig?: ServerConfig
  /** Sent to OpenRouter as `HTTP-Referer` (attribution). */
  appUrl: string
  /** Sent to OpenRouter as `X-Title` (attribution). */
  appTitle: string
}

function trimTrailingSlashes(url: string): string {
  return url.trim().replace(/\/+$/, '')
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  }
  catch {
    return url
  }
}

/**
 * Where and how to send chat requests for `settings`. The demo model and the OpenRouter proxy (server key)
 * are routes of this app and need no key; with the user's own key the browser calls OpenRouter directly,
 * so the key never reaches our server.
 */
export function resolveModelConfig(settings: ProviderSettings, options: ResolveModelConfigOptions): ModelConfig {
  const origin = trimTrailingSlashes(options.origin)
  if (settings.providerId === 'openrouter') {
    const model = settings.openrouter.model.trim() || options.serverConfig?.defaultModel || FALLBACK_OPENROUTER_MODEL
    const label = `OpenRouter · ${model}`
    if (settings.openrouter.keySource === 'server') {
      // The proxy adds the key and the attribution headers on the server.
      return { providerId: 'openrouter', baseURL: `${origin}/api/openrouter`, model, headers: {}, label, toolCallMode: 'native' }
    }
    return {
      providerId: 'openrouter',
      baseURL: OPENROUTER_API_BASE_URL,
      apiKey: settings.openrouter.apiKey.trim(),
      model,
      headers: openRouterAttributionHeaders(options.appUrl, options.appTitle),
      label,
      toolCallMode: 'native',
    }
  }
  if (settings.providerId === 'openai-compatible') {
    const { baseUrl, apiKey, model, toolCallMode } = settings.openaiCompatible
    const baseURL = trimTrailingSlashes(baseUrl)
    const key = apiKey.trim()
    return {
      providerId: 'openai-compatible',
      baseURL,
      ...(key ? { apiKey: key } : {}),
      model: model.trim(),
      headers: {},
      label: `${hostOf(baseURL)} · ${model.trim() || '(no model)'}`,
      toolCallMode,
    }
  }
  return {
    providerId: 'demo',
    baseURL: `${origin}/api/demo/v1`,
    model: DEMO_MODEL_ID,
    headers: {},
    label: 'Demo (scripted, offline)',
    toolCallMode: 'native',
  }
}
