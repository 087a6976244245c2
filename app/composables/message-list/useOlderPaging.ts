import { computed, toValue, type MaybeRefOrGetter, type Ref } from 'vue'
import type { MessageTurn } from '~/utils/chat/message-list/message-turns'

/** Distance from the top (px) at which older rows are asked for, before the user sees the end of the loaded ones. */
const LOAD_OLDER_SLACK = 4000

export interface OlderPagingOptions {
  /** The thread has rows older than the first turn shown. */
  hasOlder: MaybeRefOrGetter<boolean>
  /** Asks for the next page of older rows (asked again on each scroll near the top). */
  onLoadOlder: () => void
}

/**
 * Paging older rows in as the user scrolls up: asks for them near the top, and tells the virtualizer when they were
 * put before the turns shown, so the view stays still.
 */
export function useOlderPaging(turns: Readonly<Ref<readonly MessageTurn[]>>, threadKey: Readonly<Ref<string>>, options: OlderPagingOptions) {
  /**
   * Older turns were put before the ones shown (paging in): virtua keeps the view still by anchoring to the end.
   * Only true for the update that prepended, as virtua asks.
   */
  let previousFirstId: string | undefined
  let previousThread: string | undefined
  const shift = computed(() => {
    const first = turns.value[0]?.message.id
    const shifted = previousThread === threadKey.value && previousFirstId !== undefined && first !== previousFirstId
      && turns.value.some(turn => turn.message.id === previousFirstId)
    previousFirstId = first
    previousThread = threadKey.value
    return shifted
  })

  /** The list scrolled: near the top, the next older page is asked for. */
  function onScroll(element: HTMLElement) {
    if (toValue(options.hasOlder) && element.scrollTop < LOAD_OLDER_SLACK) options.onLoadOlder()
  }

  return { shift, onScroll }
}
