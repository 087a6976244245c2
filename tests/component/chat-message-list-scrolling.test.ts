import { afterEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatMessageList from '~/components/chat/ChatMessageList.vue'
import { row } from './chat-message-fixtures'

// The real virtua (chat-message-list.test.ts renders every turn instead). jsdom lays nothing out, so virtua mounts
// no turn here: what is checked is the element that holds the turns. jsdom has no ResizeObserver either; virtua
// needs one to take the scroller, so it gets one that never reports.
class SilentResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

function nextFrame() {
  return new Promise<void>(resolve => requestAnimationFrame(() => resolve()))
}

afterEach(() => {
  vi.unstubAllGlobals()
  delete (document.defaultView as unknown as { ResizeObserver?: unknown }).ResizeObserver
})

describe('ChatMessageList while it scrolls', () => {
  it('keeps its messages clickable while it scrolls, as it does by itself to follow a reply', async () => {
    vi.stubGlobal('ResizeObserver', SilentResizeObserver)
    ;(document.defaultView as unknown as { ResizeObserver: unknown }).ResizeObserver = SilentResizeObserver
    const wrapper = await mountSuspended(ChatMessageList, { props: { messages: [row({ role: 'user', content: 'Tell me a story' }), row({ role: 'assistant', content: 'Once' })] } })
    const scroller = wrapper.find('[data-testid="message-list"]').element as HTMLElement
    const turns = scroller.firstElementChild!.firstElementChild as HTMLElement
    // virtua takes the scroller a frame after mounting
    await nextFrame()
    await nextFrame()

    scroller.scrollTop = 100
    scroller.dispatchEvent(new Event('scroll'))
    await nextTick()
    // virtua's own choice is to turn pointer events off here until 150 ms after the last scroll
    expect(turns.style.pointerEvents).not.toBe('none')
    wrapper.unmount()
  })
})
