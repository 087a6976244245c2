import { defineComponent, h } from 'vue'

/**
 * happy-dom has no layout, so virtua (rightly) mounts no item there. Component tests of the message list mock
 * `virtua/vue` with this: every item rendered through the same slot. The virtual behaviour itself (recycling,
 * paging, focus kept) is tested in Chromium by tests/e2e/long-chat.spec.ts.
 */
export const RenderAllVirtualizer = defineComponent({
  name: 'Virtualizer',
  props: { data: { type: Array, required: true } },
  setup(props, { slots, expose }) {
    expose({ cache: undefined, scrollToIndex: () => {}, findItemIndex: () => 0, getItemOffset: () => 0 })
    return () => h('div', props.data.map((item, index) => slots.default?.({ item, index })))
  },
})
