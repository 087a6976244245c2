// Chats the server runs on its key: POST /api/chats on h3, the real in-process queue and worker, at a fake upstream
// that records what it is sent. Whatever model options a client can put in the chat pass the proxy's policy.
import * as h3 from 'h3'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ProviderError } from '#shared/errors/provider-error'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { startFakeOpenRouter } from './helpers/fake-openrouter-process'
import { listenApp } from './helpers/listen-app'
import type { ListeningApp } from './helpers/listen-app'

const store = createMemoryJobStore()
vi.mock('~~/server/utils/accounts/request-owner', () => ({ requireOwner: async () => ({ ownerId: 's1', accountId: null, role: null }) }))
vi.mock('~~/server/utils/background-jobs/store/chat-job-store', () => ({ chatJobStore: () => store }))

const runtimeConfig: Record<string, unknown> = {
  openrouterApiKey: 'sk-or-v1-server-only-secret',
  openrouterBaseUrl: '',
  openrouterAllowWebSearch: false,
  redisUrl: '',
  public: { appUrl: 'https://plugboard.test', appTitle: 'Plugboard' },
}

let fake: Awaited<ReturnType<typeof startFakeOpenRouter>>
let server: ListeningApp | undefined
let base = ''

beforeAll(async () => {
  for (const name of ['defineEventHandler', 'createError', 'setResponseStatus', 'getRequestHeader'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  (globalThis as Record<string, unknown>).useRuntimeConfig = () => runtimeConfig
  fake = await startFakeOpenRouter()
  runtimeConfig.openrouterBaseUrl = fake.baseUrl
  const { startChatWorker } = await import('~~/server/utils/background-jobs/runner/chat-worker')
  startChatWorker()
  const app = h3.createApp()
  const router = h3.createRouter()
  router.post('/api/chats', (await import('~~/server/api/chats/index.post')).default)
  app.use(router)
  server = await listenApp(app)
  base = server.base
})

afterAll(async () => {
  const { closeJobQueue } = await import('~~/server/utils/background-jobs/queue/job-queue')
  await closeJobQueue()
  fake?.stop()
  await server?.close()
})

beforeEach(async () => {
  runtimeConfig.openrouterAllowWebSearch = false
  await fake.clear()
})

/** POSTs a chat; when it starts, waits for its job to end. */
async function startChat(body: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${base}/api/chats`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ threadId: 't1', ...body }) })
  if (response.status === 201) {
    const { id } = await response.json() as { id: string }
    await vi.waitUntil(async () => ['done', 'failed'].includes((await store.getJob(id))?.status ?? ''), { timeout: 10_000, interval: 10 })
  }
  return response.status
}

describe('server-run chats on the server key', () => {
  it('refuses an :online model before it is queued, and it never reaches the upstream', async () => {
    expect(await startChat({ model: 'fake/text:online', messages: [{ role: 'user', content: 'news?' }] })).toBe(403)
    expect(await fake.received()).toEqual([])
  })

  it('runs it once the operator allows web search', async () => {
    runtimeConfig.openrouterAllowWebSearch = true
    expect(await startChat({ model: 'fake/text:online', messages: [{ role: 'user', content: 'news?' }] })).toBe(201)
    expect((await fake.received()).map(request => request.body.model)).toEqual(['fake/text:online'])
  })

  it('drops what a client hid inside its messages', async () => {
    const messages = [{ role: 'user', content: 'hi', plugins: [{ id: 'web' }], provider: { sort: 'price' } }]
    expect(await startChat({ model: 'fake/text', messages })).toBe(201)
    const [request] = await fake.received()
    expect(request!.body.messages).toEqual([{ role: 'user', content: 'hi' }])
    expect(Object.keys(request!.body).sort()).toEqual(['messages', 'model', 'stream', 'stream_options'])
  })

  it('sends the chat\'s parameters upstream and refuses ones out of range before they are queued', async () => {
    const messages = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }]
    expect(await startChat({ model: 'fake/text', messages, parameters: { temperature: 0.4, topP: 0.8, maxTokens: 64, reasoningEffort: 'low' } })).toBe(201)
    const [request] = await fake.received()
    expect(request!.body).toMatchObject({ temperature: 0.4, top_p: 0.8, max_tokens: 64, reasoning: { effort: 'low' }, messages })
    const refused = await fetch(`${base}/api/chats`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ threadId: 't1', model: 'fake/text', messages, parameters: { temperature: 7 } }) })
    expect(refused.status).toBe(400)
    expect(await fake.received()).toHaveLength(1)
  })

  it('applies the policy to every request of the worker\'s model, whatever its state says', async () => {
    const { createServerChatModel } = await import('~~/server/utils/background-jobs/runner/server-chat-model')
    const policy = { allowedModels: [], maxTokens: 0, allowWebSearch: false, allowProviderRouting: false }
    const model = createServerChatModel({ apiKey: 'sk-or-v1-server-only-secret', baseUrl: fake.baseUrl, model: 'fake/text:online', policy })
    const failure = await (async () => {
      for await (const _ of model.stream({ messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal })) { /* read to the end */ }
    })().catch((error: unknown) => error)
    expect(ProviderError.isInstance(failure) && failure.status).toBe(403)
    expect(await fake.received()).toEqual([])
  })
})
