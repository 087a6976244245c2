// Parts of the first screen mount after its first paint, when the browser is idle, and the page counts as ready
// only once they have.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatDeferredMount from '~/components/chat/ChatDeferredMount.vue'
import { deferredMountsDone } from '~/utils/chat/message-list/deferred-mounts'

const Page = defineComponent({
  render: () => h('div', [h('p', { 'data-testid': 'first' }, 'first screen'), h(ChatDeferredMount, null, { default: () => h('p', { 'data-testid': 'later' }, 'later') })]),
})

afterEach(() => vi.unstubAllGlobals())

describe('ChatDeferredMount', () => {
  it('mounts its slot after a frame, in an idle task, and the page is ready only then', async () => {
    const idle: Array<() => void> = []
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback))
    const wrapper = await mountSuspended(Page)
    expect(wrapper.find('[data-testid="first"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="later"]').exists()).toBe(false)
    let ready = false
    void deferredMountsDone().then(() => { ready = true })
    // a frame later it asks for idle time, and still shows nothing
    await vi.waitFor(() => expect(idle).toHaveLength(1))
    expect(wrapper.find('[data-testid="later"]').exists()).toBe(false)
    expect(ready).toBe(false)
    idle[0]!()
    await vi.waitFor(() => expect(wrapper.find('[data-testid="later"]').exists()).toBe(true))
    await vi.waitFor(() => expect(ready).toBe(true))
    wrapper.unmount()
  })

  it('counts as mounted when it is removed before its turn (a page left at once is not waited for)', async () => {
    vi.stubGlobal('requestIdleCallback', () => 1)
    vi.stubGlobal('cancelIdleCallback', () => {})
    const wrapper = await mountSuspended(Page)
    let ready = false
    void deferredMountsDone().then(() => { ready = true })
    wrapper.unmount()
    await vi.waitFor(() => expect(ready).toBe(true))
  })
})
