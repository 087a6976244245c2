import { describe, expect, it, vi } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatMessageList from '~/components/chat/ChatMessageList.vue'
import type { MessageRecord } from '~/db/types'
import { assistantWithCalls, row, toolRow } from './chat-message-fixtures'

vi.mock('virtua/vue', async () => ({ Virtualizer: (await import('./support/render-all-virtualizer')).RenderAllVirtualizer }))
const { fakeItemOffsets } = await import('./support/render-all-virtualizer')

/**
 * Mounts the list and waits for every turn to be whole: when a chat opens, the turns above the newest start as
 * stand-ins and mount over the next frames.
 */
async function mountList(messages: MessageRecord[], streamingMessageId?: string) {
  const wrapper = await mountSuspended(ChatMessageList, { props: { messages, streamingMessageId } })
  await vi.waitFor(() => expect(wrapper.find('[data-testid="message-stand-in"]').exists()).toBe(false))
  return wrapper
}

/** jsdom has no layout: give the scroller a size so scrolling can be simulated. */
function fakeLayout(element: HTMLElement, sizes: { scrollHeight: number, clientHeight: number }) {
  Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => sizes.scrollHeight })
  Object.defineProperty(element, 'clientHeight', { configurable: true, get: () => sizes.clientHeight })
}

describe('ChatMessageList', () => {
  it('groups an assistant row with its tool rows into one turn', async () => {
    const user = row({ role: 'user', content: 'Weather and 12*7?' })
    const assistant = assistantWithCalls(['get_weather', 'calculate'])
    const weather = toolRow('get_weather')
    const calculate = toolRow('calculate')
    const answer = row({ role: 'assistant', content: 'Sunny, and 84.' })
    const wrapper = await mountList([user, assistant, weather, calculate, answer])

    const messages = wrapper.findAll('[data-testid="message"]')
    expect(messages.map(message => message.attributes('data-role'))).toEqual(['user', 'assistant', 'assistant'])
    expect(messages[1]!.findAll('[data-testid="tool-card"]').map(card => card.attributes('data-tool'))).toEqual(['get_weather', 'calculate'])
    expect(messages[2]!.text()).toContain('Sunny, and 84.')
  })

  it('shows the newest turn whole as the chat opens, and the turns above it once they have mounted in later frames', async () => {
    const rows = Array.from({ length: 6 }, (_, index) => row({ role: index % 2 ? 'assistant' : 'user', content: `Message ${index}` }))
    const wrapper = await mountSuspended(ChatMessageList, { props: { messages: rows } })
    // the task that shows the list: the newest turn only
    expect(wrapper.findAll('[data-testid="message"]').map(message => message.text())).toEqual([expect.stringContaining('Message 5')])
    const standIns = wrapper.findAll('[data-testid="message-stand-in"]')
    expect(standIns).toHaveLength(5)
    expect(standIns.every(standIn => standIn.attributes('aria-hidden') === 'true')).toBe(true)
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="message"]')).toHaveLength(6))
    expect(wrapper.findAll('[data-testid="message"]').map(message => message.text())).toEqual(rows.map(message => expect.stringContaining(message.content)))
    expect(wrapper.find('[data-testid="message-stand-in"]').exists()).toBe(false)
  })

  it('orders rows by seq even when they arrive out of order', async () => {
    const first = row({ role: 'user', content: 'first' })
    const second = row({ role: 'assistant', content: 'second' })
    const wrapper = await mountList([second, first])
    expect(wrapper.findAll('[data-testid="message"]').map(message => message.attributes('data-role'))).toEqual(['user', 'assistant'])
  })

  it('is a polite live log region for screen readers', async () => {
    const wrapper = await mountList([row({ role: 'user', content: 'hi' })])
    const log = wrapper.find('[data-testid="message-list"]')
    expect(log.attributes('role')).toBe('log')
    expect(log.attributes('aria-live')).toBe('polite')
  })

  it('marks only the streaming message as streaming', async () => {
    const done = row({ role: 'assistant', content: 'Earlier answer' })
    const live = row({ role: 'assistant', content: 'Arriving', status: 'streaming' })
    const wrapper = await mountList([done, live], live.id)
    const contents = wrapper.findAll('[data-slot="content"]')
    expect(contents[0]!.attributes('data-streaming')).toBeUndefined()
    expect(contents[1]!.attributes('data-streaming')).toBe('true')
  })

  it('emits retry and continue with the id of the message they belong to', async () => {
    const failed = row({ role: 'assistant', status: 'error', error: { kind: 'network', message: 'You appear to be offline.', retryable: true } })
    const capped = row({ role: 'assistant', content: 'Step 10', notice: { kind: 'step-cap', message: 'Stopped after 10 steps.' } })
    const wrapper = await mountList([failed, capped])
    await wrapper.find('[data-testid="retry-button"]').trigger('click')
    await wrapper.find('[data-testid="continue-button"]').trigger('click')
    expect(wrapper.emitted('retry')).toEqual([[failed.id]])
    expect(wrapper.emitted('continue')).toEqual([[capped.id]])
  })

  it('offers Continue only on the latest turn', async () => {
    const capped = row({ role: 'assistant', content: 'Step 10', notice: { kind: 'step-cap', message: 'Stopped after 10 steps.' } })
    const later = row({ role: 'user', content: 'ok, something else' })
    const wrapper = await mountList([capped, later])
    expect(wrapper.find('[data-testid="loop-notice"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="continue-button"]').exists()).toBe(false)
  })

  it('follows the stream at the bottom, and offers Jump to latest once the user scrolls up', async () => {
    const user = row({ role: 'user', content: 'Tell me a story' })
    const reply = row({ role: 'assistant', content: 'Once', status: 'streaming' })
    const wrapper = await mountList([user, reply], reply.id)
    const scroller = wrapper.find('[data-testid="message-list"]').element as HTMLElement
    const sizes = { scrollHeight: 1000, clientHeight: 400 }
    fakeLayout(scroller, sizes)

    // New tokens while at the bottom: the list scrolls with them.
    scroller.scrollTop = 600
    await wrapper.find('[data-testid="message-list"]').trigger('scroll')
    sizes.scrollHeight = 1200
    await wrapper.setProps({ messages: [user, { ...reply, content: 'Once upon', updatedAt: reply.updatedAt + 1 }] })
    // in the next frame, where the page is laid out anyway
    await vi.waitFor(() => expect(scroller.scrollTop).toBe(1200))
    expect(wrapper.find('[data-testid="jump-to-latest"]').exists()).toBe(false)

    // The user scrolls up: new tokens no longer move the view, and Jump to latest appears.
    scroller.scrollTop = 300
    await wrapper.find('[data-testid="message-list"]').trigger('scroll')
    sizes.scrollHeight = 1400
    await wrapper.setProps({ messages: [user, { ...reply, content: 'Once upon a time', updatedAt: reply.updatedAt + 2 }] })
    expect(scroller.scrollTop).toBe(300)
    const jump = wrapper.find('[data-testid="jump-to-latest"]')
    expect(jump.text()).toBe('Jump to latest')

    await jump.trigger('click')
    // Smooth scrolling may take a few frames.
    await vi.waitFor(() => expect(scroller.scrollTop).toBe(1400))
    expect(wrapper.find('[data-testid="jump-to-latest"]').exists()).toBe(false)
  })

  it('keeps following when a turn above the view turns out smaller than guessed, which moves the scroll position up but not the view', async () => {
    const rows = [row({ role: 'user', content: 'First' }), row({ role: 'assistant', content: 'An answer' }), row({ role: 'user', content: 'Tell me a story' })]
    const reply = row({ role: 'assistant', content: 'Once', status: 'streaming' })
    const wrapper = await mountList([...rows, reply], reply.id)
    const list = wrapper.find('[data-testid="message-list"]')
    const scroller = list.element as HTMLElement
    const sizes = { scrollHeight: 1400, clientHeight: 400 }
    fakeLayout(scroller, sizes)
    // At the bottom: the reply's turn (from 800 px) at the top of the view.
    fakeItemOffsets.splice(0, Infinity, 0, 300, 600, 800)
    scroller.scrollTop = 1000
    await list.trigger('scroll')

    // The answer above is measured 200 px smaller than guessed: the list moves the position up by as much, so the
    // view shows the same text, while the reply has grown by 100 px below it.
    fakeItemOffsets.splice(0, Infinity, 0, 300, 400, 600)
    sizes.scrollHeight = 1300
    scroller.scrollTop = 800
    await list.trigger('scroll')
    expect(wrapper.find('[data-testid="jump-to-latest"]').exists()).toBe(false)
    sizes.scrollHeight = 1400
    await wrapper.setProps({ messages: [...rows, { ...reply, content: 'Once upon', updatedAt: reply.updatedAt + 1 }] })
    await vi.waitFor(() => expect(scroller.scrollTop).toBe(1400))

    // The user scrolling up does move the view: that stops the following.
    scroller.scrollTop = 600
    await list.trigger('scroll')
    expect(wrapper.find('[data-testid="jump-to-latest"]').exists()).toBe(true)
    fakeItemOffsets.length = 0
  })

  it('follows again when the user sends a question while scrolled up, its reply\'s row arriving in the same update', async () => {
    const first = row({ role: 'user', content: 'First' })
    const answer = row({ role: 'assistant', content: 'An answer' })
    const wrapper = await mountList([first, answer])
    const list = wrapper.find('[data-testid="message-list"]')
    const scroller = list.element as HTMLElement
    const sizes = { scrollHeight: 1000, clientHeight: 400 }
    fakeLayout(scroller, sizes)
    scroller.scrollTop = 600
    await list.trigger('scroll')
    scroller.scrollTop = 100
    await list.trigger('scroll')
    expect(wrapper.find('[data-testid="jump-to-latest"]').exists()).toBe(true)

    const question = row({ role: 'user', content: 'Another question' })
    const reply = row({ role: 'assistant', content: '', status: 'streaming' })
    sizes.scrollHeight = 1300
    await wrapper.setProps({ messages: [first, answer, question, reply], streamingMessageId: reply.id })
    await vi.waitFor(() => expect(scroller.scrollTop).toBe(1300))
    expect(wrapper.find('[data-testid="jump-to-latest"]').exists()).toBe(false)
  })
})
