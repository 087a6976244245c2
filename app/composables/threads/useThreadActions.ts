import type { Ref } from 'vue'
import type { PresetRecord } from '~/db/types'
import { busyThreadIds } from '~/db/thread-lock'
import type { useChat } from '~/composables/useChat'
import type { useThreads } from '~/composables/useThreads'
import type { usePresets } from '~/composables/usePresets'
import type { useOpenAtMessage } from '~/composables/useOpenAtMessage'

export interface ThreadActionsOptions {
  /** The open chat's id, kept in the address (`/?thread=…`). */
  threadId: Ref<string | undefined>
  chat: ReturnType<typeof useChat>
  threads: ReturnType<typeof useThreads>
  presets: ReturnType<typeof usePresets>
  /** The tools a preset's chat starts with. */
  tools: Ref<Parameters<ReturnType<typeof usePresets>['startChat']>[1]>
  /** Opens a chat at a stored message (reading older pages and switching branch as needed). */
  openAtMessage: ReturnType<typeof useOpenAtMessage>['openAtMessage']
  /** Called before the page shows another chat (the phone's chat list closes). */
  onNavigate?: () => void
}

/**
 * What the chat list and the page do with chats: open one, start one (empty or from a preset), rename, pin, delete,
 * open one at a message. A failure is told in a toast, never thrown into the list.
 */
export function useThreadActions(options: ThreadActionsOptions) {
  const { threadId, chat, threads, presets, tools } = options
  const router = useRouter()
  const toast = useToast()
  const { t } = useI18n()

  /** Shows a chat, or the empty chat screen: the open chat lives in the query, so the page never remounts mid-stream. */
  async function openThread(id: string | undefined) {
    options.onNavigate?.()
    await router.replace({ query: id ? { thread: id } : {} })
  }

  /** The open chat's id; an empty chat screen gets a stored chat first (Chat settings saved before the first message). */
  async function ensureThread(): Promise<string> {
    if (threadId.value) return threadId.value
    const thread = await threads.createThread()
    await openThread(thread.id)
    return thread.id
  }

  /** A new chat with a preset's prompt, model, parameters and tools. */
  async function startFromPreset(preset: PresetRecord) {
    try {
      await openThread((await presets.startChat(preset, tools.value)).id)
    }
    catch (error) {
      toast.add({ title: t('chat.errors.presetStart'), description: (error as Error).message, color: 'error' })
    }
  }

  async function onCreate() {
    chat.stop()
    await openThread(undefined)
  }

  async function onDelete(id: string) {
    if (id === threadId.value) {
      chat.stop()
      await openThread(undefined)
    }
    // the chat's rows, files and document passages go in one transaction; the search index kept in memory goes too
    await threads.deleteThread(id)
    void import('~/utils/chat/documents/document-index').then(({ forgetDocuments }) => forgetDocuments({ threadId: id }))
  }

  async function onPin(id: string, pinned: boolean) {
    try {
      await threads.setThreadPinned(id, pinned)
    }
    catch (error) {
      toast.add({ title: t(pinned ? 'chat.errors.pin' : 'chat.errors.unpin'), description: (error as Error).message, color: 'error' })
    }
  }

  async function onOpenMessage(id: string, messageId: string) {
    try {
      const busy = (chat.streaming.value && id === threadId.value) || (await busyThreadIds()).has(id)
      await options.openAtMessage(id, messageId, { mayChangeBranch: !busy })
      await openThread(id)
    }
    catch (error) {
      toast.add({ title: t('chat.errors.openMessage'), description: (error as Error).message, color: 'error' })
    }
  }

  async function onRename(id: string, title: string) {
    try {
      await threads.renameThread(id, title)
    }
    catch (error) {
      toast.add({ title: t('chat.errors.rename'), description: (error as Error).message, color: 'error' })
    }
  }

  return { openThread, ensureThread, startFromPreset, onCreate, onDelete, onPin, onOpenMessage, onRename }
}
