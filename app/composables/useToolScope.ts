import { computed, shallowRef, toValue, type MaybeRefOrGetter, type Ref } from 'vue'
import { getChatToolSet } from '~/utils/chat/tool-set/chat-tool-choices'
import { globalEnabled } from '~/utils/chat/tool-set/tool-choice-overlay'
import type { RegisteredTool } from '~/utils/chat/registry/tool-registry-types'
import { useChatToolChoices } from './useChatToolChoices'

/** Which switches the popover changes: this chat's own, or All chats' (the defaults for new chats). */
export type ToolScope = 'chat' | 'all'

export interface UseToolScopeOptions {
  tools: Readonly<Ref<readonly RegisteredTool[]>>
  /** The global (All chats) switch. */
  setEnabled: (name: string, enabled: boolean) => unknown
  /** Why a tool on only in a chat was not offered there. @default the app's per-chat tool set */
  notOfferedInChat?: (name: string) => string | undefined
}

/**
 * The popover's two views of the tool switches: This chat (the chat's own choices over All chats) and All chats
 * (the global switches, the defaults for new chats). With no chat open only All chats exists.
 */
export function useToolScope(threadId: MaybeRefOrGetter<string | undefined>, options: UseToolScopeOptions) {
  const { tools, setEnabled, notOfferedInChat = (name: string) => getChatToolSet().notOfferedBecause(name) } = options
  const chatChoices = useChatToolChoices(threadId, { tools })
  /** What the user picked last; a chat opens on This chat. */
  const preferred = shallowRef<ToolScope>('chat')
  const chatAvailable = computed(() => Boolean(toValue(threadId)))

  const scope = computed<ToolScope>({
    get: () => (chatAvailable.value ? preferred.value : 'all'),
    set: (value) => { preferred.value = value },
  })

  /** On in the chat that is open (what its next send gets). */
  const isOnHere = (tool: RegisteredTool) => chatChoices.isEnabled(tool)
  /** The switch as the chosen scope shows it. */
  const isOn = (tool: RegisteredTool) => (scope.value === 'chat' ? isOnHere(tool) : globalEnabled(tool))

  function notOfferedBecause(tool: RegisteredTool): string | null {
    if (!isOnHere(tool)) return null
    return (globalEnabled(tool) ? tool.notOfferedBecause : notOfferedInChat(tool.name)) ?? null
  }

  function toggle(tool: RegisteredTool, enabled: boolean) {
    if (scope.value === 'chat') void chatChoices.setEnabled(tool, enabled)
    else setEnabled(tool.name, enabled)
  }

  return {
    scope,
    chatAvailable,
    changedCount: chatChoices.changedCount,
    isOn,
    isOnHere,
    notOfferedBecause,
    toggle,
    reset: chatChoices.reset,
  }
}
