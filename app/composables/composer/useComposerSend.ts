import { shallowRef, watch, type Ref } from 'vue'
import { useOnline } from '@vueuse/core'
import type { SlashCommandRun } from '~/components/chat/ChatSlashCommands.vue'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'
import type { useChat } from '~/composables/useChat'
import { useComposerAttachments } from '~/composables/useComposerAttachments'
import { sendMcpPrompt, useMcpResourceHandoff } from '~/composables/mcp/useMcpHandoffs'
import { setNewest } from '~/utils/chat/recent-map'

export interface ComposerSendOptions {
  threadId: Ref<string | undefined>
  chat: ReturnType<typeof useChat>
  /** The open chat's id, a new stored chat opened first on the empty chat screen. */
  ensureThread: () => Promise<string>
}

/** Drafts kept for chats switched away from: the oldest goes first. */
const MAX_DRAFTS = 50

/**
 * What the composer sends: a message with its files, a suggestion, a slash command (its tool runs at once) or an MCP
 * server's prompt. Offline, or when a send fails, the text and files stay in the composer.
 */
export function useComposerSend({ threadId, chat, ensureThread }: ComposerSendOptions) {
  const toast = useToast()
  const { t } = useI18n()
  const online = useOnline()
  const input = shallowRef('')
  /** A Send was refused while offline; cleared when the browser is back online. */
  const sendRefusedOffline = shallowRef(false)
  watch(online, (isOnline) => {
    if (isOnline) sendRefusedOffline.value = false
  })
  // A message being written stays with its chat: switching chats keeps it, and brings back the one written in the
  // other chat ('' is the new-chat screen's), for the page's life. Switching used to empty the composer.
  const drafts = new Map<string, string>()
  /** The new-chat screen made its chat (a send, a command, Chat settings saved): what is written goes with it. */
  let intoNewChat = false
  watch(threadId, (next, previous) => {
    if (previous === undefined && intoNewChat) {
      intoNewChat = false
      return
    }
    const left = previous ?? ''
    if (input.value.trim()) setNewest(drafts, left, input.value, MAX_DRAFTS)
    else drafts.delete(left)
    input.value = drafts.get(next ?? '') ?? ''
    drafts.delete(next ?? '')
  })
  // Files waiting in the composer: a refused one is named with the reason.
  const attachments = useComposerAttachments(threadId, {
    onRefused: messages => toast.add({ title: t('chat.filesNotAttached', { count: messages.length }, messages.length), description: messages.join('\n'), color: 'warning', icon: 'i-lucide-paperclip', ui: { description: 'whitespace-pre-line' } }),
  })
  useMcpResourceHandoff(attachments)

  /** The open chat's id; on the new-chat screen, a new stored chat opened first, taking the text being written. */
  async function intoChat(): Promise<string> {
    intoNewChat = !threadId.value
    try {
      return await ensureThread()
    }
    catch (error) {
      intoNewChat = false
      throw error
    }
  }

  async function onSend(text: string) {
    const files = attachments.pending.value
    if ((!text.trim() && files.length === 0) || chat.streaming.value || chat.busyElsewhere.value) return
    // Replies come from the network: offline, the text and files wait in the composer (a suggestion's too).
    if (!online.value) {
      input.value = text
      sendRefusedOffline.value = true
      return
    }
    await intoChat()
    // The text and files are cleared only once the message is stored, so nothing the user gave is lost.
    if (await chat.send(text, files)) {
      input.value = ''
      attachments.clear()
    }
  }

  /** A slash command runs its tool at once; the card and its result join the chat's history. */
  async function onCommand(command: SlashCommandRun) {
    if (chat.streaming.value || chat.busyElsewhere.value) return
    const failed = (error: Error) => toast.add({ title: t('chat.errors.command', { command: command.line.split(/\s/)[0] }), description: error.message, color: 'error' })
    if (command.prompt) return sendMcpPrompt(command, command.prompt, onSend).catch(failed)
    const id = await intoChat()
    // the executor loads with the first command: the first screen does not need it
    await import('~/utils/chat/catalog/run-tool-command')
      .then(({ runToolCommand }) => runToolCommand({
        threadId: id, toolName: command.toolId, args: command.args, line: command.line, registry: getToolRegistry(),
        onStored: () => (input.value = ''),
      }))
      .catch(failed)
  }

  return { input, online, sendRefusedOffline, attachments, onSend, onCommand, ensureThread: intoChat }
}
