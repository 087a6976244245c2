import { computed, provide, type Ref } from 'vue'
import type { MessageRecord } from '~/db/types'
import { deleteBranch, switchBranch } from '~/db/message-branches'
import { forkThread } from '~/db/fork-thread'
import { busyThreadIds } from '~/db/thread-lock'
import { messageTreeActionsKey } from '~/utils/chat/message-list/message-tree-actions'
import type { useChat } from '~/composables/useChat'
import { useBranchPositions } from '~/composables/useBranchPositions'

export interface MessageTreeActionsOptions {
  threadId: Ref<string | undefined>
  /** The rows the list shows, whose branch positions the switcher reads. */
  rows: Ref<MessageRecord[]>
  chat: ReturnType<typeof useChat>
  /** Shows another chat (a fork opens the new one). */
  openThread: (id: string) => Promise<unknown>
}

/** Provides Edit, regenerate, branch switcher, fork and delete to the messages of the open chat. */
export function useMessageTreeActions({ threadId, rows, chat, openThread }: MessageTreeActionsOptions) {
  const toast = useToast()
  const { t } = useI18n()
  const { positions, refresh } = useBranchPositions(rows)

  /** Runs a change to the chat's tree; a failure is told, never thrown into the list. */
  async function changeTree(title: string, change: () => Promise<unknown>) {
    if (chat.streaming.value) return
    try {
      // A reply written in another tab goes on at the end of the branch shown: moving it under that reply is refused.
      if (threadId.value && (await busyThreadIds()).has(threadId.value)) throw new Error(t('chat.errors.busyElsewhere'))
      await change()
    }
    catch (error) {
      toast.add({ title, description: (error as Error).message, color: 'error' })
    }
  }

  provide(messageTreeActionsKey, {
    busy: computed(() => chat.streaming.value || chat.busyElsewhere.value),
    positionOf: messageId => positions.value.get(messageId),
    edit: async (messageId, text) => {
      let sent = false
      await changeTree(t('chat.errors.edit'), async () => (sent = await chat.edit(messageId, text)))
      return sent
    },
    regenerate: messageId => changeTree(t('chat.errors.regenerate'), () => chat.regenerate(messageId)),
    switchTo: messageId => changeTree(t('chat.errors.switchBranch'), () => switchBranch(messageId)),
    fork: messageId => changeTree(t('chat.errors.fork'), async () => openThread((await forkThread(messageId)).id)),
    remove: messageId => changeTree(t('chat.errors.deleteMessage'), async () => {
      await deleteBranch(messageId)
      await refresh()
    }),
  })
}
