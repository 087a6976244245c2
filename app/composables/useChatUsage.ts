import { shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { listAllMessages } from '~/db/messages'
import { runInIdleSteps } from '~/utils/chat/scheduling/idle-steps'
import type { MessageRecord } from '~/db/types'

/**
 * Every stored row of a chat (all branches) for its usage figures, read from Dexie, so the figures do not depend on
 * which rows the message list has paged in. Read again when the chat changes and when `changed` does (the caller
 * passes a key of its newest rows: a reply finished, a tool ran, a branch was removed), not on every streamed token.
 * A chat opened is read once the browser is idle (within a second): reading its every row (2,000 in a long chat)
 * while the message list reads and mounts its newest ones delayed them.
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
    if (!previous || previous[0] !== id) {
      await whenIdle(OPEN_READ_IDLE_TIMEOUT_MS)
      if (started !== generation) return
    }
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

/** Longest wait for an idle moment before a chat just opened has its rows read for the figures. */
const OPEN_READ_IDLE_TIMEOUT_MS = 1000

function whenIdle(timeoutMs: number): Promise<void> {
  return new Promise(resolve => void runInIdleSteps([resolve], timeoutMs))
}
