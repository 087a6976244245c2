import { shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { searchMessages } from '~/db/search-messages'
import { rankMessageResults, type MessageResult } from '~/utils/chat/message-list/sidebar-search'

export interface UseMessageSearchOptions {
  /** Quiet time after the last keystroke before the messages are searched. @default 150 */
  debounceMs?: number
  /** Messages read from the index, before ranking and the per-chat cap. @default 80 */
  candidates?: number
}

/**
 * The messages matching what the user types in the sidebar's filter, ranked for the list (`sidebar-search.ts`),
 * leaving out chats whose title matched (they are listed as chats). Searches through the word index after a short
 * pause; an answer to an older query is dropped.
 */
export function useMessageSearch(query: MaybeRefOrGetter<string>, titleMatchIds: MaybeRefOrGetter<ReadonlySet<string>>, options: UseMessageSearchOptions = {}) {
  const { debounceMs = 150, candidates = 80 } = options
  const results = shallowRef<MessageResult[]>([])
  /** The search for the current query has not answered yet. */
  const pending = shallowRef(false)
  let generation = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  watch(() => toValue(query).trim(), (text) => {
    const started = ++generation
    if (timer) clearTimeout(timer)
    if (!text) {
      results.value = []
      pending.value = false
      return
    }
    pending.value = true
    timer = setTimeout(async () => {
      try {
        const hits = await searchMessages(text, { limit: candidates })
        if (started === generation) results.value = rankMessageResults(hits, text, toValue(titleMatchIds))
      }
      catch (error) {
        console.error('[plugboard] could not search the messages', error)
        if (started === generation) results.value = []
      }
      finally {
        if (started === generation) pending.value = false
      }
    }, debounceMs)
  }, { immediate: true })

  return { results, pending }
}
