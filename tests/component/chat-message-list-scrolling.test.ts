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

describe('ChatMessageList following the newest message', () => {
  /** The scroller as a laid-out browser would have it: jsdom lays nothing out. */
  function layOut(scroller: HTMLElement) {
    const box = { clientHeight: 521, scrollHeight: 6548, scrollTop: 6027 }
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, get: () => box.clientHeight })
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, get: () => box.scrollHeight })
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, get: () => box.scrollTop, set: (value: number) => { box.scrollTop = Math.min(value, box.scrollHeight - box.clientHeight) } })
    scroller.scrollTo = ((options: ScrollToOptions) => { scroller.scrollTop = options.top ?? 0 }) as typeof scroller.scrollTo
    return box
  }

  async function mountAtTheBottom() {
    vi.stubGlobal('ResizeObserver', SilentResizeObserver)
    ;(document.defaultView as unknown as { ResizeObserver: unknown }).ResizeObserver = SilentResizeObserver
    const messages = Array.from({ length: 6 }, (_, index) => row({ role: index % 2 ? 'assistant' : 'user', content: `Message ${index}` }))
    const wrapper = await mountSuspended(ChatMessageList, { props: { messages } })
    const scroller = wrapper.find('[data-testid="message-list"]').element as HTMLElement
    await nextFrame()
    await nextFrame()
    const box = layOut(scroller)
    const scrolled = async () => {
      scroller.dispatchEvent(new Event('scroll'))
      await nextTick()
    }
    await scrolled()
    expect(wrapper.find('[data-testid="jump-to-latest"]').exists()).toBe(false)
    return { wrapper, scroller, box, scrolled, jumpShown: () => wrapper.find('[data-testid="jump-to-latest"]').exists() }
  }

  it('still follows when the list grows taller at the bottom (the composer emptied by a send) and the browser lowers its scroll position', async () => {
    const { wrapper, box, scrolled, jumpShown } = await mountAtTheBottom()
    // The composer's second line is gone: the list is a line taller, and at the bottom the browser scrolls up by
    // as much. The new question is added in the same frame, before the scroll event is dispatched.
    box.clientHeight += 24
    box.scrollTop = box.scrollHeight - box.clientHeight
    box.scrollHeight += 145
    await scrolled()
    expect(jumpShown()).toBe(false)
    wrapper.unmount()
  })

  it('stops following when the user scrolls up, with or without the list being resized at that moment', async () => {
    const { wrapper, box, scrolled, jumpShown } = await mountAtTheBottom()
    box.scrollTop -= 400
    await scrolled()
    expect(jumpShown()).toBe(true)
    wrapper.unmount()

    const second = await mountAtTheBottom()
    // a wheel turned while the composer shrank: the scroll up is the user's
    second.scroller.dispatchEvent(new Event('wheel'))
    second.box.clientHeight += 24
    second.box.scrollTop -= 300
    await second.scrolled()
    expect(second.jumpShown()).toBe(true)
    second.wrapper.unmount()
  })
})
