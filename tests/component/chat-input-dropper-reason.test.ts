import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatInputDropper from '~/components/chat/ChatInputDropper.vue'
import { toolRegistryKey } from '~/composables/useToolRegistry'
import { createToolRegistry } from '~/utils/chat/tool-registry'

const mounted: Array<{ unmount: () => void }> = []
afterEach(() => {
  mounted.splice(0).forEach(wrapper => wrapper.unmount())
})

describe('ChatInputDropper: tools that are on but not offered', () => {
  it('says why an enabled tool was left out of the last request, and stops saying it once offered', async () => {
    const registry = createToolRegistry()
    let hasEarlierChats = false
    registry.registerTool({
      type: 'function',
      function: { name: 'search_chat_history' },
      available: () => hasEarlierChats,
      unavailableReason: 'Needs earlier chats',
    }, () => 'ok')
    registry.registerTool({ type: 'function', function: { name: 'calculate' } }, () => 'ok')
    await registry.getToolSet({ threadId: 't1' })

    const requested: boolean[] = []
    const wrapper = await mountSuspended(ChatInputDropper, {
      props: { 'open': false, 'onUpdate:open': (value: boolean) => requested.push(value) },
      global: { provide: { [toolRegistryKey as symbol]: registry } },
    })
    mounted.push(wrapper)
    await wrapper.setProps({ open: true })
    await flushPromises()

    const reason = document.body.querySelector('[data-tool="search_chat_history"] [data-slot="not-offered"]')
    expect(reason?.textContent?.trim()).toBe('Not offered: Needs earlier chats')
    const toolSwitch = document.body.querySelector('[data-testid="tool-switch-search_chat_history"]')!
    expect(toolSwitch.getAttribute('aria-describedby')).toContain(reason!.id)
    expect(document.body.querySelector('[data-tool="calculate"] [data-slot="not-offered"]')).toBeNull()

    hasEarlierChats = true
    await registry.getToolSet({ threadId: 't1' })
    await flushPromises()
    expect(document.body.querySelector('[data-tool="search_chat_history"] [data-slot="not-offered"]')).toBeNull()
  })
})
