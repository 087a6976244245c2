import { afterEach, describe, expect, it } from 'vitest'
import { nextTick } from 'vue'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatSettingsPanel from '~/components/chat/ChatSettingsPanel.vue'
import { useI18n } from '~/composables/useI18n'
import { loadMoreMessages } from '~/composables/more-messages'
import ChatToolCard from '~/components/chat/ChatToolCard.vue'
import { KEEP_RUNNING_OWN_KEY_STORAGE_KEY } from '~/composables/useKeepRunningWithOwnKey'
import { defaultProviderSettings, mergeProviderSettings } from '~/utils/chat/provider/provider-settings'
import type { ServerConfig } from '~/utils/chat/provider/provider-types'
import { WAITING_FOR_BROWSER } from '#shared/types/background-chats'

const withKey: ServerConfig = { serverKey: true, defaultModel: 'openai/gpt-4o-mini', allowedModels: [], maxTokens: 0 }

afterEach(() => {
  localStorage.removeItem(KEEP_RUNNING_OWN_KEY_STORAGE_KEY)
  document.body.innerHTML = ''
})

const byTestId = <T extends HTMLElement = HTMLElement>(testId: string) => document.body.querySelector<T>(`[data-testid="${testId}"]`)

describe('"Keep running when I close the tab" with my own key', () => {
  it('is offered with my own key, off by default, says where the key goes, and applies on Save', async () => {
    const settings = mergeProviderSettings(defaultProviderSettings(withKey), { providerId: 'openrouter', openrouter: { keySource: 'user', apiKey: 'sk-or-v1-mine-123456' } })
    // the panel's text is the catalog's later part, fetched as it opens; the first fetch can outlast a flush
    await loadMoreMessages(useI18n())
    await mountSuspended(ChatSettingsPanel, { props: { settings, serverConfig: withKey, open: true }, attachTo: document.body })
    await flushPromises()
    const checkbox = byTestId<HTMLInputElement>('keep-running-own-key')!
    expect(checkbox.checked).toBe(false)
    expect(byTestId('key-privacy')!.textContent).toContain('never to this app\'s server')
    checkbox.checked = true
    checkbox.dispatchEvent(new Event('change'))
    await nextTick()
    expect(byTestId('key-privacy')!.textContent).toContain('it goes to this app\'s server with each reply')
    expect(localStorage.getItem(KEEP_RUNNING_OWN_KEY_STORAGE_KEY)).not.toBe('true')
    byTestId('settings-save')!.click()
    await flushPromises()
    expect(localStorage.getItem(KEEP_RUNNING_OWN_KEY_STORAGE_KEY)).toBe('true')
  })

  it('is not offered with the server\'s key (its own switch applies there)', async () => {
    const settings = mergeProviderSettings(defaultProviderSettings(withKey), { providerId: 'openrouter', openrouter: { keySource: 'server' } })
    await mountSuspended(ChatSettingsPanel, { props: { settings, serverConfig: withKey, open: true }, attachTo: document.body })
    await flushPromises()
    expect(byTestId('keep-running-own-key')).toBeNull()
    expect(byTestId('run-on-server')).not.toBeNull()
  })
})

describe('a tool card waiting for this browser', () => {
  it('offers Cancel only while a server-run chat\'s call waits for this browser', async () => {
    const waiting = await mountSuspended(ChatToolCard, { props: { threadId: 't1', row: { callId: 'c1', name: 'read_page_note', status: 'running', statusText: WAITING_FOR_BROWSER } } })
    expect(waiting.find('[data-testid="tool-wait-cancel"]').exists()).toBe(true)
    const running = await mountSuspended(ChatToolCard, { props: { threadId: 't1', row: { callId: 'c1', name: 'read_page_note', status: 'running', statusText: 'Reading…' } } })
    expect(running.find('[data-testid="tool-wait-cancel"]').exists()).toBe(false)
    const done = await mountSuspended(ChatToolCard, { props: { threadId: 't1', row: { callId: 'c1', name: 'read_page_note', status: 'done', statusText: WAITING_FOR_BROWSER, preview: 'x' } } })
    expect(done.find('[data-testid="tool-wait-cancel"]').exists()).toBe(false)
  })
})
