import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineAsyncComponent, defineComponent, h, nextTick } from 'vue'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatToolCardView from '~/components/chat/ChatToolCardView.vue'
import type { ToolCardData } from '~/utils/chat/message-list/tool-card'
import { getToolCard, registerToolCard } from '~/utils/chat/tool-cards/tool-card-registry'
import type { ToolCardProps } from '~/utils/chat/tool-cards/tool-card-registry'

const disposers: Array<() => void> = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
})

const running: ToolCardData = { callId: 'c1', name: 'dice_roll', status: 'running', arguments: '{"sides":20}', statusText: 'Rolling…' }
const done: ToolCardData = { ...running, status: 'done', fullResult: '{"value":17,"sides":20}', preview: '{"value":17,"sides":20}' }

/** A card that shows what it was given, so the test reads the props it got. */
const DiceCard = defineComponent({
  props: ['args', 'result', 'status', 'statusText', 'card'],
  setup(props: ToolCardProps<{ sides: number }, { value: number, sides: number }>) {
    return () => h('p', { 'data-testid': 'dice' }, props.status === 'done'
      ? `rolled ${props.result?.value} of ${props.result?.sides}`
      : `rolling a d${props.args?.sides} (${props.statusText})`)
  },
})

describe('a tool\'s own card', () => {
  it('renders the arguments while the call runs and the parsed result when done, in place of the standard summary', async () => {
    disposers.push(registerToolCard('dice_roll', DiceCard))
    const wrapper = await mountSuspended(ChatToolCardView, { props: { row: running } })
    expect(wrapper.find('[data-testid="tool-card"]').attributes('data-status')).toBe('running')
    expect(wrapper.find('[data-testid="dice"]').text()).toBe('rolling a d20 (Rolling…)')
    // the header keeps the name and status; the summary line would only repeat what the card shows
    expect(wrapper.find('[data-testid="tool-status"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="tool-summary"]').exists()).toBe(false)
    await wrapper.setProps({ row: done })
    expect(wrapper.find('[data-testid="dice"]').text()).toBe('rolled 17 of 20')
    expect(wrapper.find('[data-testid="tool-summary"]').exists()).toBe(false)
  })

  it('keeps the standard card for a call that waits for approval or failed', async () => {
    disposers.push(registerToolCard('dice_roll', DiceCard))
    const wrapper = await mountSuspended(ChatToolCardView, { props: { row: { ...running, status: 'error', error: 'boom' } } })
    expect(wrapper.find('[data-testid="dice"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="tool-summary"]').text()).toBe('boom')
  })

  it('falls back to the standard card with a note when the card throws while rendering', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    disposers.push(registerToolCard('dice_roll', defineComponent({ setup: () => () => { throw new Error('card exploded') } })))
    const wrapper = await mountSuspended(ChatToolCardView, { props: { row: done } })
    await nextTick()
    expect(wrapper.find('[data-testid="tool-custom-card"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="tool-card-fallback-note"]').text()).toContain('card exploded')
    expect(wrapper.find('[data-testid="tool-summary"]').text()).toBe('{"value":17,"sides":20}')
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })

  it('falls back when the card throws in setup or fails to load', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    disposers.push(registerToolCard('dice_roll', defineComponent({ setup() { throw new Error('setup failed') } })))
    const wrapper = await mountSuspended(ChatToolCardView, { props: { row: done } })
    await nextTick()
    expect(wrapper.find('[data-testid="tool-card-fallback-note"]').text()).toContain('setup failed')

    disposers.push(registerToolCard('dice_roll', defineAsyncComponent(() => Promise.reject(new Error('chunk missing')))))
    await flushPromises()
    await nextTick()
    expect(wrapper.find('[data-testid="tool-card-fallback-note"]').text()).toContain('chunk missing')
    warn.mockRestore()
  })

  it('registers, replaces and unregisters by name, and refuses what is not a component', () => {
    const dispose = registerToolCard('dice_roll', DiceCard)
    expect(getToolCard('dice_roll')).toBe(DiceCard)
    dispose()
    expect(getToolCard('dice_roll')).toBeUndefined()
    expect(() => registerToolCard('', DiceCard)).toThrow(/non-empty/)
    expect(() => registerToolCard('dice_roll', 'DiceCard' as never)).toThrow(/Vue component/)
  })
})
