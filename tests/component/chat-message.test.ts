import { afterEach, describe, expect, it, vi } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatMessage from '~/components/chat/ChatMessage.vue'
import type { MessageRecord } from '~/db/types'
import { assistantWithCalls, row, toolRow } from './chat-message-fixtures'

async function mountMessage(props: { message: MessageRecord, toolRows?: MessageRecord[], streaming?: boolean, isLast?: boolean, toolLabels?: Record<string, { label: string, icon: string }> }) {
  return mountSuspended(ChatMessage, { props })
}

afterEach(() => {
  vi.useRealTimers()
})

describe('ChatMessage', () => {
  it('shows the user text as plain text with its line breaks, never as HTML or markdown', async () => {
    const wrapper = await mountMessage({ message: row({ role: 'user', content: 'Line **one**\n<b>two</b>' }) })
    const bubble = wrapper.find('[data-testid="user-text"]')
    expect(bubble.text()).toBe('Line **one**\n<b>two</b>')
    expect(bubble.find('b').exists()).toBe(false)
    expect(bubble.find('strong').exists()).toBe(false)
    expect(bubble.classes()).toContain('whitespace-pre-wrap')
    expect(wrapper.find('[data-testid="message"]').attributes('data-role')).toBe('user')
  })

  it('renders the assistant reply as markdown', async () => {
    // (what sanitising removes is tested with the XSS corpus in the dom project)
    const wrapper = await mountMessage({ message: row({ role: 'assistant', content: 'Some **bold** text\n\n- one\n- two' }) })
    expect(wrapper.find('strong').text()).toBe('bold')
    expect(wrapper.findAll('li').map(item => item.text())).toEqual(['one', 'two'])
    expect(wrapper.find('[data-testid="message"]').attributes('data-role')).toBe('assistant')
  })

  it('marks a stopped reply', async () => {
    const wrapper = await mountMessage({ message: row({ role: 'assistant', content: 'Partial', status: 'stopped' }) })
    expect(wrapper.find('[data-testid="status-mark"]').text()).toBe('Stopped')
  })

  it('offers Continue and Retry on the latest reply cut by a reload or Stop, and only there', async () => {
    for (const status of ['interrupted', 'stopped'] as const) {
      const wrapper = await mountMessage({ message: row({ role: 'assistant', content: 'Partial', status }) })
      await wrapper.find('[data-testid="continue-reply-button"]').trigger('click')
      await wrapper.find('[data-testid="retry-reply-button"]').trigger('click')
      expect(wrapper.emitted('continue')).toHaveLength(1)
      expect(wrapper.emitted('retry')).toHaveLength(1)
    }
    const older = await mountMessage({ message: row({ role: 'assistant', content: 'Partial', status: 'interrupted' }), isLast: false })
    expect(older.find('[data-testid="cut-reply-actions"]').exists()).toBe(false)
    const finished = await mountMessage({ message: row({ role: 'assistant', content: 'Whole', status: 'complete' }) })
    expect(finished.find('[data-testid="cut-reply-actions"]').exists()).toBe(false)
  })

  it('marks a reply interrupted by closing the page', async () => {
    const wrapper = await mountMessage({ message: row({ role: 'assistant', content: 'Partial', status: 'interrupted' }) })
    expect(wrapper.find('[data-testid="status-mark"]').text()).toBe('Interrupted — the page was closed before this reply finished')
  })

  it('shows no status mark on a complete reply', async () => {
    const wrapper = await mountMessage({ message: row({ role: 'assistant', content: 'Done' }) })
    expect(wrapper.find('[data-testid="status-mark"]').exists()).toBe(false)
    expect(wrapper.find('[data-streaming]').exists()).toBe(false)
  })

  it('shows a caret while streaming, and a waiting line before the first token', async () => {
    const streaming = await mountMessage({ message: row({ role: 'assistant', content: 'Arriving', status: 'streaming' }), streaming: true })
    expect(streaming.find('[data-slot="content"]').attributes('data-streaming')).toBe('true')
    const waiting = await mountMessage({ message: row({ role: 'assistant', content: '', status: 'pending' }), streaming: true })
    expect(waiting.find('[data-testid="message-waiting"]').exists()).toBe(true)
  })

  it('collapses reasoning by default, labelled Thinking… while it streams and Reasoning after', async () => {
    const live = await mountMessage({ message: row({ role: 'assistant', reasoning: 'Let me think', status: 'streaming' }), streaming: true })
    expect(live.find('[data-testid="reasoning-label"]').text()).toBe('Thinking…')
    expect(live.find('details').attributes('open')).toBeUndefined()

    const done = await mountMessage({ message: row({ role: 'assistant', reasoning: 'Let me think', content: 'Answer' }) })
    expect(done.find('[data-testid="reasoning-label"]').text()).toBe('Reasoning')
    expect(done.find('details').attributes('open')).toBeUndefined()
    expect(done.find('details').text()).toContain('Let me think')
  })

  it('shows the tool cards in the order the model called them, whatever order the rows come in', async () => {
    const message = assistantWithCalls(['get_weather', 'calculate', 'search'])
    const wrapper = await mountMessage({
      message,
      toolRows: [toolRow('search'), toolRow('get_weather'), toolRow('calculate', { toolStatus: 'running', toolStatusText: 'Crunching…' })],
    })
    const cards = wrapper.findAll('[data-testid="tool-card"]')
    expect(cards.map(card => card.attributes('data-tool'))).toEqual(['get_weather', 'calculate', 'search'])
    expect(cards.map(card => card.attributes('data-status'))).toEqual(['done', 'running', 'done'])
    expect(cards[1]!.text()).toContain('Crunching…')
  })

  it('shows a call without a result row as queued while the turn is live and cancelled once it was stopped', async () => {
    const live = await mountMessage({ message: assistantWithCalls(['slow_tool'], { status: 'streaming' }), streaming: true })
    expect(live.find('[data-testid="tool-card"]').attributes('data-status')).toBe('queued')
    const stopped = await mountMessage({ message: assistantWithCalls(['slow_tool'], { status: 'stopped' }) })
    expect(stopped.find('[data-testid="tool-card"]').attributes('data-status')).toBe('cancelled')
  })

  it('uses the registry label and icon for a card', async () => {
    const wrapper = await mountMessage({
      message: assistantWithCalls(['get_weather']),
      toolRows: [toolRow('get_weather')],
      toolLabels: { get_weather: { label: 'Weather', icon: 'i-lucide-cloud' } },
    })
    expect(wrapper.find('[data-testid="tool-card"]').text()).toContain('Weather')
  })

  it('shows the full output under View details', async () => {
    const full = `${'x'.repeat(500)}END`
    const wrapper = await mountMessage({
      message: assistantWithCalls(['fetch_page']),
      toolRows: [toolRow('fetch_page', { content: 'cut', toolResultFull: full, truncated: true })],
    })
    expect(wrapper.find('[data-testid="tool-output"]').exists()).toBe(false)
    await wrapper.find('[data-testid="tool-details-toggle"]').trigger('click')
    expect(wrapper.find('[data-testid="tool-output"]').text()).toBe(full)
  })

  it('shows an error with the provider message and emits retry from the Retry button', async () => {
    const wrapper = await mountMessage({
      message: row({
        role: 'assistant',
        status: 'error',
        error: { kind: 'server', message: 'The provider failed to answer.', retryable: true, providerMessage: 'upstream 502 bad gateway' },
      }),
      isLast: false,
    })
    expect(wrapper.find('[data-testid="message-error"]').text()).toContain('The provider failed to answer.')
    expect(wrapper.find('[data-testid="provider-message"]').text()).toBe('upstream 502 bad gateway')
    await wrapper.find('[data-testid="retry-button"]').trigger('click')
    expect(wrapper.emitted('retry')).toHaveLength(1)
  })

  it('offers Retry for a non-retryable error only on the last message', async () => {
    const error = { kind: 'auth', message: 'Your API key was rejected.', retryable: false }
    const older = await mountMessage({ message: row({ role: 'assistant', status: 'error', error }), isLast: false })
    expect(older.find('[data-testid="retry-button"]').exists()).toBe(false)
    const last = await mountMessage({ message: row({ role: 'assistant', status: 'error', error }), isLast: true })
    expect(last.find('[data-testid="retry-button"]').exists()).toBe(true)
  })

  it('counts down a rate limit before Retry is enabled', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    const now = Date.now()
    const wrapper = await mountMessage({
      message: row({ role: 'assistant', status: 'error', updatedAt: now, error: { kind: 'rate-limit', message: 'Too many requests.', retryable: true, retryAfterMs: 3000 } }),
    })
    expect(wrapper.find('[data-testid="retry-countdown"]').text()).toBe('Try again in 3 s')
    expect(wrapper.find('[data-testid="retry-button"]').attributes('disabled')).toBeDefined()
    vi.advanceTimersByTime(1000)
    await wrapper.vm.$nextTick()
    expect(wrapper.find('[data-testid="retry-countdown"]').text()).toBe('Try again in 2 s')
    vi.advanceTimersByTime(2000)
    await wrapper.vm.$nextTick()
    expect(wrapper.find('[data-testid="retry-countdown"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="retry-button"]').attributes('disabled')).toBeUndefined()
  })

  it('offers Continue on a step-cap notice and emits continue', async () => {
    const wrapper = await mountMessage({
      message: row({ role: 'assistant', content: 'Partway', notice: { kind: 'step-cap', message: 'Stopped after 10 steps.' } }),
    })
    expect(wrapper.find('[data-testid="loop-notice"]').text()).toContain('Stopped after 10 steps.')
    await wrapper.find('[data-testid="continue-button"]').trigger('click')
    expect(wrapper.emitted('continue')).toHaveLength(1)
  })

  it('shows a repeated-call notice as information, without Continue', async () => {
    const wrapper = await mountMessage({
      message: row({ role: 'assistant', content: 'x', notice: { kind: 'repeated-call', message: 'search was called 3 times with the same arguments; not run again.' } }),
    })
    expect(wrapper.find('[data-testid="loop-notice"]').attributes('data-kind')).toBe('repeated-call')
    expect(wrapper.find('[data-testid="continue-button"]').exists()).toBe(false)
  })
})
