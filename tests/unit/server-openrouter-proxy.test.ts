import { describe, expect, it } from 'vitest'
import {
  buildOpenRouterUpstreamHeaders,
  buildOpenRouterUpstreamUrl,
  describeOpenRouterNetworkError,
  OPENROUTER_PROXY_ROUTES,
  pickOpenRouterResponseHeaders,
  redactSecret,
  resolveOpenRouterProxyPath,
  withoutCredentials,
} from '~~/server/utils/openrouter-proxy'
import { buildServerConfig } from '~~/server/utils/server-config'
import type { ServerConfig } from '~/utils/chat/provider/provider-types'

const KEY = 'sk-or-v1-server-secret-0123456789'

describe('OpenRouter proxy: path allow-list', () => {
  it.each([
    ['chat/completions', 'chat/completions'],
    ['/chat/completions/', 'chat/completions'],
    ['models', 'models'],
  ])('forwards %j', (raw, expected) => {
    expect(resolveOpenRouterProxyPath(raw)).toBe(expected)
  })

  it.each(['keys', 'auth/keys', 'models/../keys', 'chat%2Fcompletions', 'chat/completions/extra', 'credits', '', 'constructor', '__proto__'])(
    'refuses %j',
    (raw) => {
      expect(resolveOpenRouterProxyPath(raw)).toBeUndefined()
    },
  )

  it('refuses a missing path', () => {
    expect(resolveOpenRouterProxyPath(undefined)).toBeUndefined()
  })

  it('accepts POST for chat/completions and GET for models only', () => {
    expect(OPENROUTER_PROXY_ROUTES).toEqual({ 'chat/completions': 'POST', 'models': 'GET' })
  })
})

describe('OpenRouter proxy: upstream request', () => {
  it('joins the base URL and the path, with or without a trailing slash', () => {
    expect(buildOpenRouterUpstreamUrl('https://openrouter.ai/api/v1', 'chat/completions')).toBe('https://openrouter.ai/api/v1/chat/completions')
    expect(buildOpenRouterUpstreamUrl('http://127.0.0.1:3124/api/v1/', 'models')).toBe('http://127.0.0.1:3124/api/v1/models')
  })

  it('keeps the query string of a models request', () => {
    expect(buildOpenRouterUpstreamUrl('https://openrouter.ai/api/v1', 'models', '?supported_parameters=tools')).toBe('https://openrouter.ai/api/v1/models?supported_parameters=tools')
    expect(buildOpenRouterUpstreamUrl('https://openrouter.ai/api/v1', 'models', '?')).toBe('https://openrouter.ai/api/v1/models')
  })

  it('sends the server key and OpenRouter attribution headers', () => {
    const headers = buildOpenRouterUpstreamHeaders({ apiKey: KEY, appUrl: 'https://plugboard.example', appTitle: 'Plugboard', hasBody: true })
    expect(headers).toEqual({
      'authorization': `Bearer ${KEY}`,
      'accept': 'text/event-stream, application/json',
      'content-type': 'application/json',
      'http-referer': 'https://plugboard.example',
      'x-title': 'Plugboard',
    })
  })

  it('omits attribution headers that are not configured and keeps the client Accept', () => {
    const headers = buildOpenRouterUpstreamHeaders({ apiKey: KEY, accept: 'application/json' })
    expect(headers).toEqual({ authorization: `Bearer ${KEY}`, accept: 'application/json' })
  })
})

describe('OpenRouter proxy: response to the browser', () => {
  it('passes content-type and retry-after, not content-length or encoding', () => {
    const upstream = new Headers({
      'content-type': 'application/json',
      'retry-after': '7',
      'content-length': '99',
      'content-encoding': 'gzip',
      'set-cookie': 'session=1',
      'x-ratelimit-remaining': '0',
    })
    expect(pickOpenRouterResponseHeaders(upstream)).toEqual({ 'content-type': 'application/json', 'retry-after': '7', 'x-ratelimit-remaining': '0' })
  })

  it('marks an event stream as unbuffered', () => {
    expect(pickOpenRouterResponseHeaders(new Headers({ 'content-type': 'text/event-stream' }))).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    })
  })

  it('explains a network failure to the browser with its code, never naming the upstream URL or the key', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
    const message = describeOpenRouterNetworkError(error, 'http://user:pass@internal.example:9/api/v1', KEY)
    expect(message).toMatch(/^Could not reach the model provider \(ECONNREFUSED\)\. Try again/)
    expect(message).not.toContain('internal.example')
    expect(message).not.toContain(KEY)
  })

  it('names the upstream, without credentials, only in the server log', () => {
    const error = new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })
    const message = describeOpenRouterNetworkError(error, 'http://user:pass@127.0.0.1:9/api/v1', KEY, { internal: true })
    expect(message).toContain('the OpenRouter API at http://127.0.0.1:9/api/v1 (ECONNREFUSED)')
    expect(message).not.toContain('pass@')
  })

  it('redacts the key if an error message ever contained it', () => {
    expect(describeOpenRouterNetworkError(new Error(`bad header Bearer ${KEY}`), 'https://openrouter.ai/api/v1', KEY)).not.toContain(KEY)
    expect(redactSecret(`a ${KEY} b ${KEY}`, KEY)).toBe('a [redacted] b [redacted]')
  })

  it('strips user:password from URLs shown to users', () => {
    expect(withoutCredentials('https://me:secret@proxy.example/api/v1')).toBe('https://proxy.example/api/v1')
  })
})

describe('server config for the browser', () => {
  it('says whether a key exists without ever containing it, or the upstream URL', () => {
    const config: ServerConfig = buildServerConfig({ openrouterApiKey: KEY, public: { defaultModel: 'fake/tools' } })
    expect(config).toEqual({ serverKey: true, defaultModel: 'fake/tools', allowedModels: [], maxTokens: 0 })
    expect(JSON.stringify(config)).not.toContain(KEY)
  })

  it('reports no key for an empty or blank key', () => {
    expect(buildServerConfig({ openrouterApiKey: '' }).serverKey).toBe(false)
    expect(buildServerConfig({ openrouterApiKey: '   ' }).serverKey).toBe(false)
  })

  it('tells the model picker which models and how many tokens the operator allows', () => {
    const config = buildServerConfig({ openrouterApiKey: KEY, openrouterModels: 'a/one, b/two\nc/three', openrouterMaxTokens: '2048', public: { defaultModel: 'b/two' } })
    expect(config).toMatchObject({ allowedModels: ['a/one', 'b/two', 'c/three'], maxTokens: 2048, defaultModel: 'b/two' })
  })

  it('picks an allowed default model when the configured one is not allowed', () => {
    expect(buildServerConfig({ openrouterModels: 'a/one,b/two', public: { defaultModel: 'openai/gpt-4o-mini' } }).defaultModel).toBe('a/one')
  })

  it('falls back to the default model', () => {
    expect(buildServerConfig({})).toEqual({ serverKey: false, defaultModel: 'openai/gpt-4o-mini', allowedModels: [], maxTokens: 0 })
  })
})
