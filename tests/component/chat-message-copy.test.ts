import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatMessage from '~/components/chat/ChatMessage.vue'
import type { MessageRecord } from '~/db/types'
import { row } from './chat-message-fixtures'

const MARKDOWN = '## Plan\n\nSome **bold** and `code`:\n\n```ts\nconst a = 1 < 2\n```\n\n- one\n- two'

/** Lucide's check, the icon a successful copy shows. */
const CHECK_PATH = 'M20 6L9 17l-5-5'

let writeText: Mock<(text: string) => Promise<void>>

function setClipboard(clipboard: { writeText: (text: string) => Promise<void> } | undefined) {
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true })
}

async function mountMessage(message: MessageRecord, streaming = false) {
  return mountSuspended(ChatMessage, { props: { message, streaming } })
}

beforeEach(() => {
  writeText = vi.fn(async (_text: string) => {})
  setClipboard({ writeText })
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('copying a message', () => {
  it('copies an assistant reply as its markdown source, not the rendered text or HTML', async () => {
    const wrapper = await mountMessage(row({ role: 'assistant', content: MARKDOWN }))
    expect(wrapper.find('strong').exists()).toBe(true)
    await wrapper.find('[data-testid="message-copy"]').trigger('click')
    expect(writeText).toHaveBeenCalledTimes(1)
    expect(writeText).toHaveBeenCalledWith(MARKDOWN)
  })

  it('copies a user message exactly as typed', async () => {
    const text = 'Line **one**\n<b>two</b>'
    const wrapper = await mountMessage(row({ role: 'user', content: text }))
    await wrapper.find('[data-testid="message-copy"]').trigger('click')
    expect(writeText).toHaveBeenCalledWith(text)
  })

  it('is a plain keyboard-reachable button named for what it does', async () => {
    const wrapper = await mountMessage(row({ role: 'assistant', content: 'Done' }))
    const button = wrapper.find('[data-testid="message-copy"]')
    expect(button.element.tagName).toBe('BUTTON')
    expect(button.attributes('type')).toBe('button')
    expect(button.attributes('aria-label')).toBe('Copy message')
    expect(button.attributes('tabindex')).toBeUndefined()
  })

  it('shows Copied with a check for two seconds and announces it politely', async () => {
    const wrapper = await mountMessage(row({ role: 'assistant', content: 'Done' }))
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    await wrapper.find('[data-testid="message-copy"]').trigger('click')
    for (let index = 0; index < 5; index++) await Promise.resolve()
    await wrapper.vm.$nextTick()
    expect(wrapper.find('[data-testid="message-copy-outcome"]').text()).toBe('Copied')
    expect(wrapper.find('[data-testid="message-copy"]').attributes('aria-label')).toBe('Copied')
    expect(wrapper.find('[data-testid="message-copy"] svg path').attributes('d')).toBe(CHECK_PATH)
    vi.advanceTimersByTime(150)
    const announcer = document.querySelector('[data-testid="copy-announcer"]')!
    expect(announcer.getAttribute('role')).toBe('status')
    expect(announcer.textContent).toBe('Message copied')
    vi.advanceTimersByTime(2000)
    await wrapper.vm.$nextTick()
    expect(wrapper.find('[data-testid="message-copy-outcome"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="message-copy"]').attributes('aria-label')).toBe('Copy message')
    expect(wrapper.find('[data-testid="message-copy"] svg path').attributes('d')).not.toBe(CHECK_PATH)
  })

  it('says Copy failed when the browser refuses, and when there is no clipboard (insecure page)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    writeText.mockRejectedValue(new DOMException('denied', 'NotAllowedError'))
    const refused = await mountMessage(row({ role: 'assistant', content: 'Done' }))
    await refused.find('[data-testid="message-copy"]').trigger('click')
    await vi.waitFor(() => expect(refused.find('[data-testid="message-copy-outcome"]').text()).toBe('Copy failed'))
    setClipboard(undefined)
    const insecure = await mountMessage(row({ role: 'user', content: 'Hi' }))
    await insecure.find('[data-testid="message-copy"]').trigger('click')
    await vi.waitFor(() => expect(insecure.find('[data-testid="message-copy-outcome"]').text()).toBe('Copy failed'))
  })

  it('is offered once a reply has finished, not while it streams, and not for a turn without text', async () => {
    const streaming = await mountMessage(row({ role: 'assistant', content: 'Partial', status: 'streaming' }), true)
    expect(streaming.find('[data-testid="message-copy"]').exists()).toBe(false)
    await streaming.setProps({ streaming: false, message: { ...streaming.props('message'), status: 'complete' } })
    expect(streaming.find('[data-testid="message-copy"]').exists()).toBe(true)
    const toolsOnly = await mountMessage(row({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: '{}' } }] }))
    expect(toolsOnly.find('[data-testid="message-copy"]').exists()).toBe(false)
  })

  it('sits in the same row of actions as an error\'s Retry would follow, under the reply', async () => {
    const wrapper = await mountMessage(row({ role: 'assistant', content: 'Partial', status: 'error', error: { kind: 'network', message: 'Lost', retryable: true } }))
    expect(wrapper.find('[data-testid="message-copy"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="retry-button"]').exists()).toBe(true)
  })
})
