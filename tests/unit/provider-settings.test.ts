import { describe, expect, it } from 'vitest'
import type { ProviderSettings, ServerConfig } from '~/utils/chat/provider/provider-types'
import {
  defaultProviderSettings,
  mergeProviderSettings,
  parseStoredProviderSettings,
  resolveModelConfig,
  validateProviderSettings,
} from '~/utils/chat/provider/provider-settings'

const withKey: ServerConfig = { serverKey: true, defaultModel: 'anthropic/claude-3.5-haiku', allowedModels: [], maxTokens: 0 }
const withoutKey: ServerConfig = { serverKey: false, defaultModel: 'openai/gpt-4o-mini', allowedModels: [], maxTokens: 0 }
const resolveOptions = { origin: 'http://localhost:3000', serverConfig: withoutKey, appUrl: 'https://plugboard.example', appTitle: 'Plugboard' }

describe('defaultProviderSettings', () => {
  it('starts on the offline demo when the server holds no key', () => {
    const settings = defaultProviderSettings(withoutKey)
    expect(settings.providerId).toBe('demo')
    expect(settings.openrouter.keySource).toBe('user')
  })

  it('starts on OpenRouter through the server key, with the server default model, when the server holds a key', () => {
    const settings = defaultProviderSettings(withKey)
    expect(settings.providerId).toBe('openrouter')
    expect(settings.openrouter).toEqual({ keySource: 'server', apiKey: '', model: 'anthropic/claude-3.5-haiku' })
  })

  it('starts on the demo before the server config is known', () => {
    expect(defaultProviderSettings().providerId).toBe('demo')
  })

  it('points the OpenAI-compatible endpoint at Ollama with auto-detected tool calls', () => {
    expect(defaultProviderSettings().openaiCompatible).toEqual({ baseUrl: 'http://localhost:11434/v1', apiKey: '', model: '', toolCallMode: 'auto' })
  })
})

describe('parseStoredProviderSettings', () => {
  it('gives the defaults without a warning when nothing is stored', () => {
    expect(parseStoredProviderSettings(null, withKey)).toEqual({ settings: defaultProviderSettings(withKey) })
  })

  it('reads back what was saved', () => {
    const saved: ProviderSettings = {
      version: 1,
      providerId: 'openai-compatible',
      openrouter: { keySource: 'user', apiKey: 'sk-or-1', model: 'x/y' },
      openaiCompatible: { baseUrl: 'http://127.0.0.1:1234/v1', apiKey: '', model: 'qwen2.5', toolCallMode: 'text' },
    }
    expect(parseStoredProviderSettings(JSON.stringify(saved), withKey)).toEqual({ settings: saved })
  })

  it.each([
    ['not JSON', '{"version":1,'],
    ['an array', '[1,2]'],
    ['a string', '"hello"'],
    ['another version', '{"version":2,"providerId":"demo"}'],
    ['another app\'s data', '{"theme":"dark"}'],
  ])('falls back to the defaults with a warning for %s', (_label, raw) => {
    const parsed = parseStoredProviderSettings(raw, withoutKey)
    expect(parsed.settings).toEqual(defaultProviderSettings(withoutKey))
    expect(parsed.warning).toMatch(/defaults/)
  })

  it('resets only the invalid fields and keeps the saved key', () => {
    const raw = JSON.stringify({
      version: 1,
      providerId: 'gemini',
      openrouter: { keySource: 'user', apiKey: 'sk-or-keep', model: 42 },
      openaiCompatible: { toolCallMode: 'sometimes' },
    })
    const parsed = parseStoredProviderSettings(raw, withoutKey)
    expect(parsed.settings.providerId).toBe('demo')
    expect(parsed.settings.openrouter).toEqual({ keySource: 'user', apiKey: 'sk-or-keep', model: 'openai/gpt-4o-mini' })
    expect(parsed.settings.openaiCompatible.toolCallMode).toBe('auto')
    expect(parsed.warning).toContain('providerId')
    expect(parsed.warning).toContain('model')
    expect(parsed.warning).toContain('toolCallMode')
  })

  it('copies only known fields, so a stored __proto__ does not leak into the settings', () => {
    const parsed = parseStoredProviderSettings('{"version":1,"providerId":"demo","__proto__":{"polluted":true},"extra":1}')
    expect(Object.keys(parsed.settings).sort()).toEqual(['openaiCompatible', 'openrouter', 'providerId', 'version'])
    expect((parsed.settings as unknown as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('mergeProviderSettings', () => {
  it('merges nested groups without dropping their other fields', () => {
    const base = defaultProviderSettings(withKey)
    const merged = mergeProviderSettings(base, { providerId: 'openrouter', openrouter: { keySource: 'user', apiKey: 'sk-or-2' } })
    expect(merged.openrouter).toEqual({ keySource: 'user', apiKey: 'sk-or-2', model: 'anthropic/claude-3.5-haiku' })
    expect(base.openrouter.apiKey).toBe('')
  })
})

describe('resolveModelConfig', () => {
  it('sends the demo to this app\'s demo route with no key', () => {
    const config = resolveModelConfig(defaultProviderSettings(), resolveOptions)
    expect(config).toMatchObject({ baseURL: 'http://localhost:3000/api/demo/v1', model: 'plugboard/demo', label: 'Demo (scripted, offline)' })
    expect(config.apiKey).toBeUndefined()
  })

  it('sends OpenRouter with the server key through this app\'s proxy, without any key in the browser', () => {
    const config = resolveModelConfig(defaultProviderSettings(withKey), { ...resolveOptions, serverConfig: withKey })
    expect(config).toMatchObject({ baseURL: 'http://localhost:3000/api/openrouter', model: 'anthropic/claude-3.5-haiku', headers: {} })
    expect(config.apiKey).toBeUndefined()
    expect(config.label).toBe('OpenRouter · anthropic/claude-3.5-haiku')
  })

  it('sends OpenRouter with the user\'s key straight to openrouter.ai with the attribution headers', () => {
    const settings = mergeProviderSettings(defaultProviderSettings(), { providerId: 'openrouter', openrouter: { keySource: 'user', apiKey: ' sk-or-user ', model: 'openai/gpt-4o-mini' } })
    const config = resolveModelConfig(settings, resolveOptions)
    expect(config).toMatchObject({ baseURL: 'https://openrouter.ai/api/v1', apiKey: 'sk-or-user', model: 'openai/gpt-4o-mini', label: 'OpenRouter · openai/gpt-4o-mini' })
    expect(config.headers['HTTP-Referer']).toBe('https://plugboard.example')
    expect(Object.values(config.headers)).toContain('Plugboard')
  })

  it('sends an OpenAI-compatible endpoint to its base URL without trailing slashes, with its tool-call mode', () => {
    const settings = mergeProviderSettings(defaultProviderSettings(), {
      providerId: 'openai-compatible',
      openaiCompatible: { baseUrl: 'http://localhost:1234/v1//', model: 'qwen2.5-7b', toolCallMode: 'text' },
    })
    const config = resolveModelConfig(settings, resolveOptions)
    expect(config).toMatchObject({ baseURL: 'http://localhost:1234/v1', model: 'qwen2.5-7b', toolCallMode: 'text', label: 'localhost:1234 · qwen2.5-7b' })
    expect(config.apiKey).toBeUndefined()
  })

  it('passes an OpenAI-compatible key when one is set', () => {
    const settings = mergeProviderSettings(defaultProviderSettings(), { providerId: 'openai-compatible', openaiCompatible: { apiKey: 'vllm-key', model: 'm' } })
    expect(resolveModelConfig(settings, resolveOptions).apiKey).toBe('vllm-key')
  })
})

describe('validateProviderSettings', () => {
  const compatible = (patch: Partial<ProviderSettings['openaiCompatible']>) =>
    mergeProviderSettings(defaultProviderSettings(), { providerId: 'openai-compatible', openaiCompatible: { model: 'llama3.1', ...patch } })

  it('accepts the demo and a complete OpenAI-compatible endpoint', () => {
    expect(validateProviderSettings(defaultProviderSettings())).toEqual({})
    expect(validateProviderSettings(compatible({ baseUrl: 'https://llm.example.com/v1' }))).toEqual({})
  })

  it.each(['ftp://example.com/v1', 'localhost:11434/v1', '', 'not a url'])('asks for an http(s) base URL instead of %j', (baseUrl) => {
    expect(validateProviderSettings(compatible({ baseUrl })).baseUrl).toMatch(/must start with http:\/\/ or https:\/\//)
  })

  it('requires a model', () => {
    expect(validateProviderSettings(compatible({ model: '  ' })).model).toBe('A model is required.')
    const openrouter = mergeProviderSettings(defaultProviderSettings(withKey), { openrouter: { model: '' } })
    expect(validateProviderSettings(openrouter, withKey).model).toBe('A model is required.')
  })

  it('requires a key for OpenRouter with the user\'s own key, but not with the server\'s', () => {
    const own = mergeProviderSettings(defaultProviderSettings(), { providerId: 'openrouter', openrouter: { keySource: 'user', apiKey: '' } })
    expect(validateProviderSettings(own, withoutKey).apiKey).toMatch(/OpenRouter key is required/)
    expect(validateProviderSettings(defaultProviderSettings(withKey), withKey)).toEqual({})
  })

  it('refuses the server key when the server holds none', () => {
    const server = mergeProviderSettings(defaultProviderSettings(), { providerId: 'openrouter', openrouter: { keySource: 'server' } })
    expect(validateProviderSettings(server, withoutKey).keySource).toMatch(/no OpenRouter key/)
  })
})
