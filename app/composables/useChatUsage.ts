import { shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { listAllMessages } from '~/db/messages'
import type { MessageRecord } from '~/db/types'

/**
 * Every stored row of a chat (all branches) for its usage figures, read from Dexie, so the figures do not depend on
 * which rows the message list has paged in. Read again when the chat changes and when `changed` does (the caller
 * passes a key of its newest rows: a reply finished, a tool ran, a branch was removed), not on every streamed token.
 */
export function useChatUsageRows(threadId: MaybeRefOrGetter<string | undefined>, changed: MaybeRefOrGetter<unknown>) {
  const rows = shallowRef<readonly MessageRecord[]>([])
  let generation = 0
  watch(() => [toValue(threadId), toValue(changed)] as const, async ([id], previous) => {
    const started = ++generation
    if (!id) {
      rows.value = []
      return
    }
    // A chat switched to shows nothing of the previous chat's figures while its rows are read.
    if (previous && previous[0] !== id) rows.value = []
    try {
      const all = await listAllMessages(id)
      if (started === generation) rows.value = all
    }
    catch (error) {
      console.error('[plugboard] could not read the chat\'s usage', error)
    }
  }, { immediate: true })
  return { rows }
}
