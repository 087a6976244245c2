import { computed, shallowRef, toValue, watch, type MaybeRefOrGetter, type Ref } from 'vue'
import { getMessage } from '~/db/messages'
import { switchBranch } from '~/db/message-branches'
import type { MessageRecord } from '~/db/types'

/** The open chat's message window (`useMessageWindow`), as far as opening at a message needs it. */
export interface OpenAtMessageWindow {
  threadId: MaybeRefOrGetter<string | undefined>
  rows: Readonly<Ref<readonly MessageRecord[]>>
  hasOlder: Readonly<Ref<boolean>>
  loading: Readonly<Ref<boolean>>
  loaded: Readonly<Ref<boolean>>
  loadOlder: () => void
}

/**
 * Opening a chat at one of its messages (a search result): the branch holding it is shown if it is not, older pages
 * are read until the message is among the rows, and then `focusMessageId` names it for the list to scroll to.
 */
export function useOpenAtMessage(window: OpenAtMessageWindow) {
  const target = shallowRef<{ threadId: string, messageId: string }>()

  /**
   * Prepares the chat to open at `messageId` (the caller then opens the chat). Throws with a message for the user
   * when the message is gone, or is on a branch not shown while the chat may not change branch (a reply is written).
   */
  async function openAtMessage(threadId: string, messageId: string, options: { mayChangeBranch?: boolean } = {}) {
    const row = await getMessage(messageId)
    if (!row || row.threadId !== threadId) throw new Error('That message is no longer in the chat.')
    if (!row.onPath) {
      if (options.mayChangeBranch === false) throw new Error('The message is on another branch, and a reply to this chat is being written. Try again when it has finished.')
      await switchBranch(messageId)
    }
    target.value = { threadId, messageId }
  }

  const inWindow = computed(() => {
    const wanted = target.value
    return Boolean(wanted && toValue(window.threadId) === wanted.threadId && window.loaded.value
      && window.rows.value.some(row => row.id === wanted.messageId))
  })

  // Another chat opened after the request (not the one it opens): the request is dropped.
  watch(() => toValue(window.threadId), (id) => {
    if (target.value && id !== target.value.threadId) target.value = undefined
  })
  watch([target, inWindow, window.hasOlder, window.loading, window.loaded, () => toValue(window.threadId)], () => {
    const wanted = target.value
    if (!wanted || toValue(window.threadId) !== wanted.threadId) return
    if (!inWindow.value && window.loaded.value && window.hasOlder.value && !window.loading.value) window.loadOlder()
  })

  return {
    /** The message the list should scroll to and mark, once it is among the rows. */
    focusMessageId: computed(() => (inWindow.value ? target.value?.messageId : undefined)),
    openAtMessage,
    /** The list reached it: the request is done. */
    onFocused: () => { target.value = undefined },
  }
}
