import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick } from 'vue'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended, registerEndpoint } from '@nuxt/test-utils/runtime'
import { useProviderSettings } from '~/composables/useProviderSettings'
import { PROVIDER_SETTINGS_STORAGE_KEY } from '~/utils/chat/provider/provider-settings'

const serverConfig = { serverKey: true, defaultModel: 'meta-llama/llama-3.3-70b-instruct', allowedModels: [], maxTokens: 0 }

beforeAll(() => {
  registerEndpoint('/api/config', () => serverConfig)
})
beforeEach(() => {
  localStorage.clear()
})

async function useInComponent() {
  let api!: ReturnType<typeof useProviderSettings>
  await mountSuspended(defineComponent({
    setup() {
      api = useProviderSettings()
      return () => h('div')
    },
  }))
  await api.ready
  await flushPromises()
  return api
}

describe('useProviderSettings', () => {
  it('defaults to OpenRouter through the server proxy when GET /api/config reports a server key', async () => {
    const { settings, serverConfig: loaded, modelConfig, label } = await useInComponent()
    expect(loaded.value).toEqual(serverConfig)
    expect(settings.value.providerId).toBe('openrouter')
    expect(settings.value.openrouter.keySource).toBe('server')
    expect(modelConfig.value.baseURL).toBe(`${window.location.origin}/api/openrouter`)
    expect(label.value).toBe('OpenRouter · meta-llama/llama-3.3-70b-instruct')
  })

  it('remembers a saved choice in localStorage under plugboard:provider:v1', async () => {
    const { save, settings } = await useInComponent()
    save({ providerId: 'openai-compatible', openaiCompatible: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' } })
    await nextTick()
    const stored = JSON.parse(localStorage.getItem(PROVIDER_SETTINGS_STORAGE_KEY)!)
    expect(stored.providerId).toBe('openai-compatible')
    expect(stored.openaiCompatible.baseUrl).toBe('http://127.0.0.1:8080/v1')
    expect(settings.value.openaiCompatible.model).toBe('qwen')

    const again = await useInComponent()
    expect(again.settings.value.providerId).toBe('openai-compatible')
  })

  it('falls back to the defaults with a warning when the stored value is corrupt', async () => {
    localStorage.setItem(PROVIDER_SETTINGS_STORAGE_KEY, '{not json')
    const { settings, warning } = await useInComponent()
    expect(settings.value.providerId).toBe('openrouter')
    expect(warning.value).toMatch(/could not be read/)
  })

  it('forgets the saved settings on reset', async () => {
    const { save, reset, settings } = await useInComponent()
    save({ providerId: 'demo' })
    await nextTick()
    expect(settings.value.providerId).toBe('demo')
    reset()
    await nextTick()
    expect(localStorage.getItem(PROVIDER_SETTINGS_STORAGE_KEY)).toBeNull()
    expect(settings.value.providerId).toBe('openrouter')
  })

  it('builds a model that calls the user\'s OpenRouter key straight at openrouter.ai, not this server', async () => {
    const { save, createModel } = await useInComponent()
    save({ providerId: 'openrouter', openrouter: { keySource: 'user', apiKey: 'sk-or-secret', model: 'openai/gpt-4o-mini' } })
    await nextTick()
    const fetchMock = vi.fn(async () => new Response('data: [DONE]\n\n', { headers: { 'Content-Type': 'text/event-stream' } }))
    vi.stubGlobal('fetch', fetchMock)
    try {
      for await (const _event of createModel().stream({ messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal })) { /* drain */ }
    }
    finally {
      vi.unstubAllGlobals()
    }
    // The app's own start-up may fetch too (the server's tool list, `/api/tools`) while fetch is stubbed: find the
    // model's request, and make sure none went through this server's proxy.
    const calls = fetchMock.mock.calls as unknown as Array<[string, RequestInit]>
    expect(calls.filter(([url]) => String(url).includes('/api/openrouter'))).toEqual([])
    const completions = calls.filter(([url]) => String(url).endsWith('/chat/completions'))
    expect(completions).toHaveLength(1)
    const [url, init] = completions[0]!
    expect(url).toBe('https://openrouter.ai/api/v1/chat/completions')
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer sk-or-secret')
    expect(JSON.parse(init.body as string).model).toBe('openai/gpt-4o-mini')
  })
})
