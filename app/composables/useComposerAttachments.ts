import { computed, shallowRef, toValue, type MaybeRefOrGetter } from 'vue'
import type { AttachmentDraft } from '~/db/attachments'
import { attachmentBytesOfThread } from '~/db/attachments'
import { prepareAttachments } from '~/utils/chat/attachments/prepare-attachments'

export interface UseComposerAttachmentsOptions {
  /** Told the files of one pick, paste or drop that were refused (kind, size, a limit), a sentence naming each. */
  onRefused?: (messages: string[]) => void
}

/**
 * The files waiting in the composer for the next message: added (checked against the limits, images resized),
 * removed one by one, and taken by a send. They belong to the composer, not to a chat, so switching chats keeps
 * what was picked; the per-chat limit is checked against the chat open when they are added.
 */
export function useComposerAttachments(threadId: MaybeRefOrGetter<string | undefined>, options: UseComposerAttachmentsOptions = {}) {
  const pending = shallowRef<AttachmentDraft[]>([])
  /** Files being read and resized. */
  const preparing = shallowRef(0)

  async function add(files: readonly File[]) {
    if (files.length === 0) return
    preparing.value++
    try {
      const id = toValue(threadId)
      const chatBytes = id ? await attachmentBytesOfThread(id) : 0
      const { drafts, refusals } = await prepareAttachments(files, { pending: pending.value, chatBytes })
      pending.value = [...pending.value, ...drafts]
      if (refusals.length) options.onRefused?.(refusals)
    }
    finally {
      preparing.value--
    }
  }

  function remove(id: string) {
    pending.value = pending.value.filter(draft => draft.id !== id)
  }

  /** Empties the list (after the message and its files were stored). */
  function clear() {
    pending.value = []
  }

  return { pending, preparing: computed(() => preparing.value > 0), add, remove, clear }
}
