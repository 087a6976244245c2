// The proxy route (/api/openrouter/[...path]) on h3, at a fake upstream that records what it is sent: what an
// attacker puts in a chat request on the server's key, and what of it reaches OpenRouter. (Bare h3 answers errors
// without their message; the messages are checked on the policy itself, openrouter-body-policy.test.ts.)
import * as h3 from 'h3'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenRouter } from './helpers/fake-openrouter-process'
import { listenApp } from './helpers/listen-app'
import type { ListeningApp } from './helpers/listen-app'

const runtimeConfig: Record<string, unknown> = {
  openrouterApiKey: 'sk-or-v1-server-only-secret',
  openrouterBaseUrl: '',
  openrouterAllowWebSearch: false,
  openrouterAllowProviderRouting: false,
  public: { appUrl: 'https://plugboard.test', appTitle: 'Plugboard' },
}

let fake: Awaited<ReturnType<typeof startFakeOpenRouter>>
let server: ListeningApp | undefined
let base = ''

beforeAll(async () => {
  for (const name of ['defineEventHandler', 'createError', 'setResponseHeaders', 'setResponseStatus', 'getRouterParam', 'getRequestURL', 'getRequestHeader'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  (globalThis as Record<string, unknown>).useRuntimeConfig = () => runtimeConfig
  fake = await startFakeOpenRouter()
  runtimeConfig.openrouterBaseUrl = fake.baseUrl
  const app = h3.createApp()
  const router = h3.createRouter()
  router.use('/api/openrouter/**:path', (await import('~~/server/api/openrouter/[...path]')).default)
  app.use(router)
  server = await listenApp(app)
  base = server.base
})

afterAll(async () => {
  fake?.stop()
  await server?.close()
})

beforeEach(async () => {
  runtimeConfig.openrouterAllowWebSearch = false
  runtimeConfig.openrouterAllowProviderRouting = false
  await fake.clear()
})

const chat = (extra: Record<string, unknown>) => ({ model: 'fake/text', stream: true, messages: [{ role: 'user', content: 'hi' }], ...extra })

async function send(body: unknown) {
  const response = await fetch(`${base}/api/openrouter/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, text: await response.text() }
}

/** The three paid options of the probe: web search twice, provider routing once. */
const PAID = {
  plugins: [{ id: 'web', max_results: 10 }],
  web_search_options: { search_context_size: 'high' },
  provider: { order: ['openai'], allow_fallbacks: false, max_price: { prompt: 1000 } },
} as const

/** How many of the paid fields reached the upstream, over one request each. */
async function paidFieldsReaching(): Promise<{ reached: number, statuses: number[] }> {
  const statuses: number[] = []
  for (const [field, value] of Object.entries(PAID)) statuses.push((await send(chat({ [field]: value }))).status)
  const received = await fake.received()
  return { reached: Object.keys(PAID).filter(field => received.some(request => Object.hasOwn(request.body, field))).length, statuses }
}

describe('paid options on the server key, through the proxy route', () => {
  it('keeps plugins, web_search_options and provider from the upstream (403)', async () => {
    const { reached, statuses } = await paidFieldsReaching()
    expect(reached).toBe(0)
    expect(statuses).toEqual([403, 403, 403])
  })

  it('forwards them once the operator allows web search and provider routing', async () => {
    runtimeConfig.openrouterAllowWebSearch = true
    runtimeConfig.openrouterAllowProviderRouting = true
    const { reached, statuses } = await paidFieldsReaching()
    expect(statuses).toEqual([200, 200, 200])
    expect(reached).toBe(3)
    const received = await fake.received()
    expect(received.map(request => request.body.plugins ?? request.body.web_search_options ?? request.body.provider)).toEqual(Object.values(PAID))
  })

  it('refuses web search hidden in the model id or the fallback list', async () => {
    for (const body of [chat({ model: 'fake/text:online' }), chat({ models: ['fake/text', 'fake/tools:online'] }), chat({ model: 'fake/text:nitro' })]) {
      expect((await send(body)).status).toBe(403)
    }
    expect(await fake.received()).toEqual([])
  })

  it('keeps the fallback list inside the model allow-list', async () => {
    runtimeConfig.openrouterModels = 'fake/text'
    try {
      expect((await send(chat({ models: ['fake/text', 'openai/o1-pro'] }))).status).toBe(403)
      expect(await fake.received()).toEqual([])
    }
    finally {
      delete runtimeConfig.openrouterModels
    }
  })

  it('refuses a field it does not know', async () => {
    for (const field of ['modalities', 'service_tier', 'route']) {
      expect((await send(chat({ [field]: field === 'modalities' ? ['image', 'text'] : 'priority' }))).status).toBe(400)
    }
    expect(await fake.received()).toEqual([])
  })

  it('drops unknown keys inside messages and tools, and forwards what the app sends unchanged', async () => {
    const tool = { type: 'function', function: { name: 'calculate', description: 'Adds.', parameters: { type: 'object', properties: { expression: { type: 'string' } } } } }
    const app = chat({ stream_options: { include_usage: true }, tools: [tool], tool_choice: 'auto' })
    expect((await send(app)).status).toBe(200)
    const junk = chat({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', plugins: [{ id: 'web' }] }], provider: { sort: 'price' } }],
      tools: [{ ...tool, provider: 'x', function: { ...tool.function, web_search_options: {} } }],
    })
    expect((await send(junk)).status).toBe(200)
    const [forwardedApp, forwardedJunk] = (await fake.received()).map(request => request.body)
    expect(forwardedApp).toEqual(app)
    expect(forwardedJunk).toEqual({ ...junk, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [tool] })
    expect(JSON.stringify(forwardedJunk)).not.toMatch(/plugins|provider|web_search_options/)
  })
})
