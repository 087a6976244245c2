import { defineComponent, h } from 'vue'

/** Where the items start (px), as virtua would have measured them; empty: every item at 0. A test sets it. */
export const fakeItemOffsets: number[] = []

/**
 * happy-dom has no layout, so virtua (rightly) mounts no item there. Component tests of the message list mock
 * `virtua/vue` with this: every item rendered through the same slot. The virtual behaviour itself (recycling,
 * paging, focus kept) is tested in Chromium by tests/e2e/long-chat.spec.ts.
 */
export const RenderAllVirtualizer = defineComponent({
  name: 'Virtualizer',
  props: { data: { type: Array, required: true } },
  setup(props, { slots, expose }) {
    expose({
      cache: undefined,
      scrollToIndex: () => {},
      findItemIndex: (offset: number) => Math.max(0, fakeItemOffsets.findLastIndex(start => start <= offset)),
      getItemOffset: (index: number) => fakeItemOffsets[index] ?? 0,
    })
    return () => h('div', props.data.map((item, index) => slots.default?.({ item, index })))
  },
})
