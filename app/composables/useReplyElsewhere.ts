import { onScopeDispose, readonly, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { onReplyStartedElsewhere, whenThreadFree, writerElsewhere } from '~/db/thread-lock'

export interface UseReplyElsewhereOptions {
  /** Called with the thread when the other tab's reply ended (finished, stopped, or that tab closed). */
  onEnd?: (threadId: string) => void
}

/**
 * Whether another tab is writing a reply in the open chat right now (`busy`). Learns it when the chat opens (one
 * query of the locks), when another tab announces a reply, or when `notice(id)` is told by a refused claim; learns
 * the end from a lock request granted when that tab lets go, never by polling.
 */
export function useReplyElsewhere(threadId: MaybeRefOrGetter<string | undefined>, options: UseReplyElsewhereOptions = {}) {
  const busy = shallowRef(false)
  let waiting: { threadId: string, controller: AbortController } | undefined

  function stopWaiting() {
    waiting?.controller.abort()
    waiting = undefined
    busy.value = false
  }

  /** Shows the open chat as busy until the other tab's reply ends. */
  async function notice(id: string) {
    if (id !== toValue(threadId) || waiting?.threadId === id) return
    stopWaiting()
    const controller = new AbortController()
    waiting = { threadId: id, controller }
    busy.value = true
    try {
      await whenThreadFree(id, controller.signal)
    }
    catch {
      return // the chat was left, or this scope ended
    }
    if (waiting?.controller !== controller) return
    waiting = undefined
    busy.value = false
    options.onEnd?.(id)
  }

  watch(() => toValue(threadId), async (id) => {
    stopWaiting()
    if (id && await writerElsewhere(id)) void notice(id)
  }, { immediate: true })
  const unsubscribe = onReplyStartedElsewhere(id => void notice(id))
  onScopeDispose(() => {
    unsubscribe()
    waiting?.controller.abort()
  })

  return { busy: readonly(busy), notice }
}
