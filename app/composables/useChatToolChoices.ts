import { computed, toValue, type MaybeRefOrGetter } from 'vue'
import { getThreadToolChoices, setThreadToolChoices } from '~/db/thread-tool-choices'
import { countChangedInChat, isEnabledInChat, withChatChoice, type ToolChoices } from '~/utils/chat/tool-set/tool-choice-overlay'
import type { RegisteredTool } from '~/utils/chat/registry/tool-registry-types'
import { useLiveQuery } from './useLiveQuery'

export interface UseChatToolChoicesOptions {
  /** The registered tools (for the count of changed ones). */
  tools: MaybeRefOrGetter<readonly RegisteredTool[]>
  /** Told when a choice cannot be saved. @default console.error */
  onError?: (error: Error) => void
}

/**
 * One chat's own tool switches, kept up to date from Dexie (another tab's change shows too). Without a chat
 * (`threadId` undefined) every tool follows All chats and choices cannot be set.
 */
export function useChatToolChoices(threadId: MaybeRefOrGetter<string | undefined>, options: UseChatToolChoicesOptions) {
  const { onError = (error: Error) => console.error(error) } = options
  const choices = useLiveQuery<ToolChoices | undefined>(
    async () => {
      const id = toValue(threadId)
      return id ? await getThreadToolChoices(id) : undefined
    },
    () => toValue(threadId),
    undefined,
  )

  const changedCount = computed(() => countChangedInChat(toValue(options.tools), choices.value))

  function isEnabled(tool: RegisteredTool): boolean {
    return isEnabledInChat(tool, choices.value)
  }

  async function save(next: Record<string, boolean>) {
    const id = toValue(threadId)
    if (!id) return
    choices.value = next
    await setThreadToolChoices(id, next).catch((error: Error) => onError(error))
  }

  /** Switch a tool on or off in this chat only. */
  function setEnabled(tool: RegisteredTool, enabled: boolean): Promise<void> {
    return save(withChatChoice(choices.value, tool, enabled))
  }

  /** Forget this chat's own choices: it follows All chats again. */
  function reset(): Promise<void> {
    return save(Object.create(null))
  }

  return { choices, changedCount, isEnabled, setEnabled, reset }
}
