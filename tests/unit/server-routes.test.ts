// The Nitro route files themselves, run on h3 (the server Nitro uses) with Nitro's auto-imports provided as
// globals, so the routes are checked over real HTTP before the app is built.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import * as h3 from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listenApp } from './helpers/listen-app'
import type { ListeningApp } from './helpers/listen-app'

const KEY = 'sk-or-v1-server-only-secret'
const runtimeConfig = {
  openrouterApiKey: KEY,
  openrouterBaseUrl: '',
  public: { defaultModel: 'fake/tools', appUrl: 'https://plugboard.test', appTitle: 'Plugboard' },
}

let fake: ChildProcess
let fakeOrigin = ''
let server: ListeningApp | undefined
let base = ''

async function startFakeOpenRouter(): Promise<string> {
  fake = spawn(process.execPath, [resolve(process.cwd(), 'tests/fixtures/fake-openrouter/server.mjs')], {
    env: { ...process.env, PORT: '0', FAKE_OPENROUTER_DELAY_MS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolveUrl, reject) => {
    let output = ''
    fake.stdout!.on('data', (data: Buffer) => {
      output += data.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) resolveUrl(match[1]!)
    })
    fake.once('exit', code => reject(new Error(`fake-openrouter exited with ${code}`)))
  })
}

beforeAll(async () => {
  for (const name of ['defineEventHandler', 'readValidatedBody', 'readRawBody', 'createError', 'setResponseHeader', 'setResponseHeaders', 'setResponseStatus', 'sendStream', 'getRouterParam', 'getRequestURL', 'getRequestHeader'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  (globalThis as Record<string, unknown>).useRuntimeConfig = () => runtimeConfig
  fakeOrigin = await startFakeOpenRouter()
  runtimeConfig.openrouterBaseUrl = `${fakeOrigin}/api/v1`

  const app = h3.createApp()
  const router = h3.createRouter()
  router.post('/api/demo/v1/chat/completions', (await import('~~/server/api/demo/v1/chat/completions.post')).default)
  router.get('/api/demo/v1/models', (await import('~~/server/api/demo/v1/models.get')).default)
  router.get('/api/config', (await import('~~/server/api/config.get')).default)
  router.use('/api/openrouter/**:path', (await import('~~/server/api/openrouter/[...path]')).default)
  app.use(router)
  server = await listenApp(app)
  base = server.base
})

afterAll(async () => {
  fake?.kill('SIGTERM')
  await server?.close()
})

function post(path: string, body: unknown) {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

describe('demo model route', () => {
  it('streams an OpenAI-compatible SSE reply ending in [DONE]', async () => {
    const response = await post('/api/demo/v1/chat/completions', { model: 'plugboard/demo', stream: true, messages: [{ role: 'user', content: 'what is 12*7' }], tools: [{ type: 'function', function: { name: 'calculate', parameters: { type: 'object', properties: { expression: { type: 'string' } } } } }] })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const body = await response.text()
    expect(body.startsWith('data: {')).toBe(true)
    expect(body).toContain('"finish_reason":"tool_calls"')
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true)
  })

  it('answers with one JSON completion when stream is false', async () => {
    const response = await post('/api/demo/v1/chat/completions', { messages: [{ role: 'user', content: 'hello' }] })
    const completion = await response.json() as { object: string, choices: { message: { content: string } }[] }
    expect(completion.object).toBe('chat.completion')
    expect(completion.choices[0]!.message.content).toContain('Scripted demo model')
  })

  it('rejects a bad body with 400 and a message naming the field', async () => {
    const response = await post('/api/demo/v1/chat/completions', { messages: 'hi' })
    expect(response.status).toBe(400)
    // Nitro's error handler also puts `message` ("Invalid chat request: messages: ...") in the body; bare h3 keeps `data`.
    const body = await response.json() as { statusMessage: string, data: { issues: { path: string, message: string }[] } }
    expect(body.statusMessage).toBe('Validation Error')
    expect(body.data.issues[0]).toMatchObject({ path: 'messages', message: expect.stringMatching(/expected array/i) })
  })

  it('lists plugboard/demo with tools support', async () => {
    const { data } = await (await fetch(`${base}/api/demo/v1/models`)).json() as { data: { id: string, supported_parameters: string[] }[] }
    expect(data[0]).toMatchObject({ id: 'plugboard/demo', supported_parameters: expect.arrayContaining(['tools']) })
  })
})

describe('config route', () => {
  it('tells the browser a key exists without sending it', async () => {
    const text = await (await fetch(`${base}/api/config`)).text()
    expect(JSON.parse(text)).toEqual({ serverKey: true, defaultModel: 'fake/tools', allowedModels: [], maxTokens: 0 })
    expect(text).not.toContain(KEY)
    expect(text).not.toContain(fakeOrigin)
  })
})

describe('OpenRouter proxy route', () => {
  it('streams the upstream reply through with the server key and attribution headers', async () => {
    await fetch(`${fakeOrigin}/__requests`, { method: 'DELETE' })
    const response = await post('/api/openrouter/chat/completions', { model: 'fake/text', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const body = await response.text()
    expect(body).toContain('"content":"Peb"')
    expect(body).not.toContain(KEY)
    const [recorded] = await (await fetch(`${fakeOrigin}/__requests`)).json() as { headers: Record<string, string>, body: { model: string } }[]
    expect(recorded!.headers).toMatchObject({ 'authorization': `Bearer ${KEY}`, 'http-referer': 'https://plugboard.test', 'x-title': 'Plugboard' })
    expect(recorded!.body.model).toBe('fake/text')
  })

  it('keeps the upstream status, body and retry-after of an error', async () => {
    const response = await post('/api/openrouter/chat/completions', { model: 'fake/429', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('7')
    expect(await response.json()).toMatchObject({ error: { code: 429 } })
  })

  it('forwards GET models', async () => {
    const { data } = await (await fetch(`${base}/api/openrouter/models`)).json() as { data: { id: string }[] }
    expect(data.map(model => model.id)).toContain('fake/tools')
  })

  it('answers 404 for any other path and 405 for the wrong method', async () => {
    expect((await fetch(`${base}/api/openrouter/keys`)).status).toBe(404)
    expect((await fetch(`${base}/api/openrouter/models`, { method: 'POST', body: '{}' })).status).toBe(405)
  })

  it('answers 503 with the setting to change when the server has no key', async () => {
    runtimeConfig.openrouterApiKey = ''
    try {
      const response = await fetch(`${base}/api/openrouter/models`)
      expect(response.status).toBe(503)
      expect((await response.json() as { statusMessage: string }).statusMessage).toBe('No OpenRouter key is configured on the server (NUXT_OPENROUTER_API_KEY).')
    }
    finally {
      runtimeConfig.openrouterApiKey = KEY
    }
  })

  it('answers 502 with a clear message when the upstream cannot be reached', async () => {
    const saved = runtimeConfig.openrouterBaseUrl
    runtimeConfig.openrouterBaseUrl = 'http://127.0.0.1:9/api/v1'
    try {
      const response = await fetch(`${base}/api/openrouter/models`)
      expect(response.status).toBe(502)
      const text = await response.text()
      expect(text).toContain('Could not reach the model provider (')
      expect(text).not.toContain('127.0.0.1:9')
      expect(text).not.toContain(KEY)
    }
    finally {
      runtimeConfig.openrouterBaseUrl = saved
    }
  })

  it('aborts the upstream request when the browser disconnects mid-stream', async () => {
    let upstreamClosed!: () => void
    const closed = new Promise<void>((done) => { upstreamClosed = done })
    const slowUpstream = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      const timer = setInterval(() => response.write('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n'), 5)
      response.on('close', () => {
        clearInterval(timer)
        upstreamClosed()
      })
    })
    await new Promise<void>(done => slowUpstream.listen(0, '127.0.0.1', done))
    const saved = runtimeConfig.openrouterBaseUrl
    runtimeConfig.openrouterBaseUrl = `http://127.0.0.1:${(slowUpstream.address() as AddressInfo).port}/api/v1`
    try {
      const abort = new AbortController()
      const response = await fetch(`${base}/api/openrouter/chat/completions`, { method: 'POST', body: '{"model":"fake/text","stream":true,"messages":[]}', signal: abort.signal })
      const reader = response.body!.getReader()
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('data: ')
      abort.abort()
      await closed
    }
    finally {
      runtimeConfig.openrouterBaseUrl = saved
      slowUpstream.closeAllConnections()
      await new Promise(done => slowUpstream.close(done))
    }
  })
})
