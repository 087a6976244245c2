import { computed, nextTick, shallowRef, watch, type Ref } from 'vue'
import type { ThreadRecord } from '~/db/types'
import type { MessageResult } from '~/utils/chat/message-list/sidebar-search'

export interface UseSearchResultKeysOptions {
  /** Enter on a chat found by its title. */
  onSelectThread: (threadId: string) => void
  /** Enter on a message found. */
  onOpenResult: (result: MessageResult) => void
}

/**
 * The keyboard of the sidebar's search box: arrows move through the results (the chats found by title, then the
 * messages) and wrap, Enter opens the one the arrows are on (the first when none), Escape clears the query. The
 * results are named by element id (`thread-row-<id>`, `message-result-<id>`) for `aria-activedescendant`.
 */
export function useSearchResultKeys(query: Ref<string>, titleMatches: Ref<readonly ThreadRecord[]>, messageResults: Ref<readonly MessageResult[]>, options: UseSearchResultKeysOptions) {
  /** An index over the title matches, then the message results; -1: none. */
  const activeIndex = shallowRef(-1)
  watch([query, messageResults], () => { activeIndex.value = -1 })
  const count = computed(() => (query.value.trim() ? titleMatches.value.length + messageResults.value.length : 0))
  const activeDescendant = computed(() => {
    const index = activeIndex.value
    if (index < 0 || index >= count.value) return undefined
    const titles = titleMatches.value.length
    return index < titles ? `thread-row-${titleMatches.value[index]!.id}` : `message-result-${messageResults.value[index - titles]!.messageId}`
  })

  function onKeydown(event: KeyboardEvent) {
    if (event.key === 'Escape' && query.value) {
      event.preventDefault()
      query.value = ''
      return
    }
    const total = count.value
    if (total === 0) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      activeIndex.value = activeIndex.value < 0 ? (step > 0 ? 0 : total - 1) : (activeIndex.value + step + total) % total
      void nextTick(() => document.getElementById(activeDescendant.value ?? '')?.scrollIntoView({ block: 'nearest' }))
    }
    else if (event.key === 'Enter') {
      event.preventDefault()
      const index = Math.max(0, activeIndex.value)
      const titles = titleMatches.value.length
      if (index < titles) options.onSelectThread(titleMatches.value[index]!.id)
      else options.onOpenResult(messageResults.value[index - titles]!)
    }
  }

  return { count, activeDescendant, onKeydown }
}
