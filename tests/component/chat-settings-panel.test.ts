import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import { useI18n } from '~/composables/useI18n'
import { loadMoreMessages } from '~/composables/more-messages'
import ChatSettingsPanel from '~/components/chat/ChatSettingsPanel.vue'
import { defaultProviderSettings, mergeProviderSettings } from '~/utils/chat/provider/provider-settings'
import type { ProviderSettings, ServerConfig } from '~/utils/chat/provider/provider-types'

const withKey: ServerConfig = { serverKey: true, defaultModel: 'openai/gpt-4o-mini', allowedModels: [], maxTokens: 0 }
const withoutKey: ServerConfig = { ...withKey, serverKey: false }

const modelList = {
  data: [
    { id: 'openai/gpt-4o-mini', name: 'GPT-4o mini', context_length: 128000, supported_parameters: ['tools', 'temperature'] },
    { id: 'some/old-model', name: 'Old model', context_length: 4096, supported_parameters: ['temperature'] },
  ],
}

const realFetch = globalThis.fetch
// Answers /models; everything else (icons) goes to the real fetch.
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  if (!String(input).endsWith('/models')) return realFetch(input, init)
  return new Response(JSON.stringify(modelList), { headers: { 'Content-Type': 'application/json' } })
})

beforeEach(() => {
  fetchMock.mockClear()
  fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!String(input).endsWith('/models')) return realFetch(input, init)
    return new Response(JSON.stringify(modelList), { headers: { 'Content-Type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  vi.unstubAllGlobals()
  document.body.innerHTML = ''
})

async function openPanel(settings: ProviderSettings, serverConfig: ServerConfig) {
  // the panel's text is the catalog's later part, fetched as it opens; the first fetch can outlast a flush
  await loadMoreMessages(useI18n())
  const wrapper = await mountSuspended(ChatSettingsPanel, { props: { settings, serverConfig, open: true }, attachTo: document.body })
  await flushPromises()
  return wrapper
}

/** The slide-over is teleported to <body>. */
function byTestId<T extends HTMLElement = HTMLElement>(testId: string): T | null {
  return document.body.querySelector<T>(`[data-testid="${testId}"]`)
}

async function choose(testId: string) {
  const radio = byTestId<HTMLInputElement>(testId)!
  radio.checked = true
  radio.dispatchEvent(new Event('change'))
  await nextTick()
}

async function type(testId: string, value: string) {
  const input = byTestId<HTMLInputElement>(testId)!
  input.value = value
  input.dispatchEvent(new Event('input'))
  await nextTick()
}

async function clickSave() {
  byTestId('settings-save')!.click()
  await nextTick()
}

describe('ChatSettingsPanel', () => {
  it('offers the server\'s key when the server holds one', async () => {
    await openPanel(defaultProviderSettings(withKey), withKey)
    expect(byTestId('settings-panel')).not.toBeNull()
    expect(byTestId<HTMLInputElement>('provider-openrouter')!.checked).toBe(true)
    expect(byTestId<HTMLInputElement>('key-source-server')!.checked).toBe(true)
    expect(document.body.textContent).toContain('Use the server\'s key')
  })

  it('hides the server-key option and asks for the user\'s key when the server holds none', async () => {
    await openPanel(defaultProviderSettings(withoutKey), withoutKey)
    await choose('provider-openrouter')
    expect(byTestId('key-source-server')).toBeNull()
    expect(document.body.textContent).not.toContain('Use the server\'s key')
    expect(byTestId('api-key')).not.toBeNull()
    expect(document.body.textContent).toContain('Sign in with OpenRouter')
    expect(document.body.textContent).toContain('stays in this browser')
  })

  it('shows a message on a base URL that is not http(s) and does not save', async () => {
    const wrapper = await openPanel(defaultProviderSettings(withoutKey), withoutKey)
    await choose('provider-openai-compatible')
    await type('base-url', 'ftp://localhost/v1')
    await clickSave()
    expect(document.body.textContent).toContain('The base URL must start with http:// or https://')
    expect(wrapper.emitted('save')).toBeUndefined()
  })

  it('asks for a key before saving OpenRouter with the user\'s own key', async () => {
    const wrapper = await openPanel(defaultProviderSettings(withoutKey), withoutKey)
    await choose('provider-openrouter')
    await clickSave()
    expect(document.body.textContent).toContain('An OpenRouter key is required')
    expect(wrapper.emitted('save')).toBeUndefined()
  })

  it('saves a valid OpenAI-compatible endpoint with its tool-call mode', async () => {
    const settings = mergeProviderSettings(defaultProviderSettings(withoutKey), { openaiCompatible: { model: 'llama3.1' } })
    const wrapper = await openPanel(settings, withoutKey)
    await choose('provider-openai-compatible')
    await type('base-url', 'http://127.0.0.1:1234/v1')
    await choose('tool-call-mode-text')
    await clickSave()
    const saved = wrapper.emitted('save')?.[0]?.[0] as ProviderSettings
    expect(saved.providerId).toBe('openai-compatible')
    expect(saved.openaiCompatible).toMatchObject({ baseUrl: 'http://127.0.0.1:1234/v1', model: 'llama3.1', toolCallMode: 'text' })
  })

  it('lists models from the provider\'s /models for the picker', async () => {
    await openPanel(defaultProviderSettings(withKey), withKey)
    expect(fetchMock).toHaveBeenCalled()
    expect(fetchMock.mock.calls.map(call => String(call[0])).join(' ')).toMatch(/\/api\/openrouter\/models\b/)
    expect(byTestId('model-picker')).not.toBeNull()
  })

  it('marks which listed models support tools', async () => {
    await openPanel(defaultProviderSettings(withKey), withKey)
    byTestId('model-picker')!.click()
    await flushPromises()
    const options = [...document.body.querySelectorAll('[role="option"]')].map(option => option.textContent ?? '')
    expect(options.find(text => text.includes('GPT-4o mini'))).toContain('tools')
    expect(options.find(text => text.includes('GPT-4o mini'))).not.toContain('no tools')
    expect(options.find(text => text.includes('Old model'))).toContain('no tools')
  })

  it('says so when the model list cannot be loaded, and keeps the picker', async () => {
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).endsWith('/models')) return realFetch(input, init)
      return new Response(JSON.stringify({ error: { message: 'upstream down' } }), { status: 502, headers: { 'Content-Type': 'application/json' } })
    })
    await openPanel(defaultProviderSettings(withKey), withKey)
    expect(document.body.textContent).toContain('Could not list models from')
    expect(document.body.textContent).toContain('You can still type a model id')
    expect(byTestId('model-picker')).not.toBeNull()
  })

  it('does not change the settings it was given before Save', async () => {
    const settings = defaultProviderSettings(withoutKey)
    const wrapper = await openPanel(settings, withoutKey)
    await choose('provider-openai-compatible')
    byTestId('settings-cancel')!.click()
    await nextTick()
    expect(settings.providerId).toBe('demo')
    expect(wrapper.emitted('save')).toBeUndefined()
  })
})

describe('keeping replies running on the server', () => {
  const serverKeySettings = (): ProviderSettings => mergeProviderSettings(defaultProviderSettings(withKey), { providerId: 'openrouter', openrouter: { keySource: 'server' } })

  afterEach(() => localStorage.removeItem('plugboard:run-on-server:v1'))

  it('is offered with the server\'s key, on by default, and a change applies on Save', async () => {
    await openPanel(serverKeySettings(), withKey)
    const checkbox = byTestId<HTMLInputElement>('run-on-server')!
    expect(checkbox.checked).toBe(true)
    checkbox.checked = false
    checkbox.dispatchEvent(new Event('change'))
    await nextTick()
    expect(localStorage.getItem('plugboard:run-on-server:v1')).not.toBe('false')
    byTestId('settings-save')!.click()
    await flushPromises()
    expect(localStorage.getItem('plugboard:run-on-server:v1')).toBe('false')
  })

  it('is not offered with the user\'s own key', async () => {
    await openPanel(mergeProviderSettings(defaultProviderSettings(withKey), { providerId: 'openrouter', openrouter: { keySource: 'user', apiKey: 'sk-or-x' } }), withKey)
    expect(byTestId('run-on-server')).toBeNull()
  })
})
