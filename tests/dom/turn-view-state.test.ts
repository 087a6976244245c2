import { describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, shallowRef } from 'vue'
import { mount } from '@vue/test-utils'
import { createTurnViewState, provideTurnViewState, useForgetTurnViewState, useTurnViewState } from '~/utils/chat/message-list/turn-view-state'

/** A turn's toggle, as a tool card has one. */
const Toggle = defineComponent({
  props: { viewKey: { type: String, default: undefined } },
  setup(props) {
    const { value: open, remembered } = useTurnViewState(props.viewKey, false)
    const forget = useForgetTurnViewState()
    return () => h('button', { 'data-remembered': String(remembered), 'onClick': () => (open.value = !open.value), 'onContextmenu': () => forget(props.viewKey!) }, open.value ? 'open' : 'closed')
  },
})

/** A list that mounts its turns or not, as a virtual list does when they scroll out and back. */
function listOf(keys: string[]) {
  const shown = shallowRef(true)
  const List = defineComponent({
    setup() {
      provideTurnViewState()
      return () => h('div', shown.value ? keys.map(key => h(Toggle, { key, viewKey: key })) : [])
    },
  })
  return { wrapper: mount(List), shown }
}

describe('turn view state', () => {
  it('a turn unmounted and mounted again inside the list comes back as the user left it', async () => {
    const { wrapper, shown } = listOf(['tool-details:a', 'tool-details:b'])
    await wrapper.findAll('button')[1]!.trigger('click')
    expect(wrapper.findAll('button').map(button => button.text())).toEqual(['closed', 'open'])
    shown.value = false
    await nextTick()
    expect(wrapper.findAll('button')).toHaveLength(0)
    shown.value = true
    await nextTick()
    expect(wrapper.findAll('button').map(button => button.text())).toEqual(['closed', 'open'])
    expect(wrapper.findAll('button').map(button => button.attributes('data-remembered'))).toEqual(['false', 'true'])
    // forgotten (an edit saved or cancelled), it starts from its default again
    await wrapper.findAll('button')[1]!.trigger('contextmenu')
    shown.value = false
    await nextTick()
    shown.value = true
    await nextTick()
    expect(wrapper.findAll('button')[1]!.text()).toBe('closed')
    wrapper.unmount()
  })

  it('outside a message list (a shared chat) the state is the component\'s own', async () => {
    const first = mount(Toggle, { props: { viewKey: 'tool-details:x' } })
    await first.find('button').trigger('click')
    expect(first.text()).toBe('open')
    first.unmount()
    expect(mount(Toggle, { props: { viewKey: 'tool-details:x' } }).text()).toBe('closed')
  })

  it('keeps a bounded number of values, dropping the one set longest ago; a value back at its default is not kept', async () => {
    const state = createTurnViewState(3)
    for (const key of ['a', 'b', 'c']) state.set(key, true)
    state.set('a', true)
    state.set('d', true)
    expect(['a', 'b', 'c', 'd'].filter(key => state.has(key))).toEqual(['a', 'c', 'd'])

    const { wrapper, shown } = listOf(['k'])
    await wrapper.find('button').trigger('click')
    await wrapper.find('button').trigger('click')
    shown.value = false
    await nextTick()
    shown.value = true
    await nextTick()
    expect(wrapper.find('button').text()).toBe('closed')
    expect(wrapper.find('button').attributes('data-remembered')).toBe('false')
    wrapper.unmount()
  })
})
