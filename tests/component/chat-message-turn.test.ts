import { describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatMessageTurn from '~/components/chat/ChatMessageTurn.vue'
import { turnMountQueueKey } from '~/utils/chat/message-list/turn-mount-key'
import type { TurnMountQueue } from '~/utils/chat/message-list/turn-mount-queue'
import type { MessageTurn } from '~/utils/chat/message-list/message-turns'
import { row } from './chat-message-fixtures'

// A turn of the message list while the user scrolls: whole when the task may still mount, else a stand-in of about
// its size until the queue gets to it; the newest turn and a streaming one are never kept waiting.

/** A queue that refuses every turn and runs the waiting ones when told. */
function refusingQueue() {
  const waiting: Array<() => void> = []
  const queue: TurnMountQueue = {
    admit: () => false,
    defer(show) {
      waiting.push(show)
      return () => waiting.splice(waiting.indexOf(show), 1)
    },
    get waiting() { return waiting.length },
    clear: () => { waiting.length = 0 },
  }
  return { queue, runAll: () => waiting.splice(0).forEach(show => show()) }
}

const answer: MessageTurn = { message: row({ role: 'assistant', content: 'Answer: **42**.\n\nBecause six times seven.' }), toolRows: [] }

function mountTurn(props: { turn: MessageTurn, isLast?: boolean, streaming?: boolean }, queue?: TurnMountQueue) {
  return mountSuspended(ChatMessageTurn, { props, global: { provide: queue ? { [turnMountQueueKey as symbol]: queue } : {} } })
}

describe('ChatMessageTurn', () => {
  it('shows a hidden stand-in of about the turn\'s height while it waits, then the whole message', async () => {
    const { queue, runAll } = refusingQueue()
    const wrapper = await mountTurn({ turn: answer }, queue)
    const standIn = wrapper.find('[data-testid="message-stand-in"]')
    expect(standIn.exists()).toBe(true)
    expect(standIn.attributes('aria-hidden')).toBe('true')
    expect(Number.parseInt(standIn.attributes('style')!.match(/height:\s*(\d+)px/)![1]!)).toBeGreaterThan(40)
    expect(wrapper.find('[data-testid="message"]').exists()).toBe(false)
    expect(queue.waiting).toBe(1)

    runAll()
    await nextTick()
    expect(wrapper.find('[data-testid="message-stand-in"]').exists()).toBe(false)
    // The message's markdown may take a few frames (the task's markdown budget), its text comes whole.
    await vi.waitFor(() => expect(wrapper.find('[data-testid="message"]').text()).toContain('Because six times seven.'))
  })

  it('leaves the queue when it goes away before its turn came (scrolled past)', async () => {
    const { queue } = refusingQueue()
    const wrapper = await mountTurn({ turn: answer }, queue)
    expect(queue.waiting).toBe(1)
    wrapper.unmount()
    expect(queue.waiting).toBe(0)
  })

  it('never keeps the newest or a streaming turn waiting', async () => {
    const { queue } = refusingQueue()
    const newest = await mountTurn({ turn: answer, isLast: true }, queue)
    expect(newest.find('[data-testid="message"]').exists()).toBe(true)
    const streaming = await mountTurn({ turn: { message: row({ role: 'assistant', content: 'Arriv', status: 'streaming' }), toolRows: [] }, streaming: true }, queue)
    expect(streaming.find('[data-testid="message"]').exists()).toBe(true)
    expect(queue.waiting).toBe(0)
  })

  it('becomes whole at once when a waiting turn becomes the newest (a reply was deleted for a retry)', async () => {
    const { queue } = refusingQueue()
    const wrapper = await mountTurn({ turn: answer }, queue)
    await wrapper.setProps({ isLast: true })
    expect(wrapper.find('[data-testid="message"]').exists()).toBe(true)
    expect(queue.waiting).toBe(0)
  })

  it('is whole at once outside a list (no queue)', async () => {
    const wrapper = await mountTurn({ turn: answer })
    expect(wrapper.find('[data-testid="message"]').text()).toContain('Answer:')
  })
})
