import { StorageError } from '#shared/errors/storage-error'
import { checkChatSettings, setParameters } from '#shared/loop/chat-settings'
import type { ChatSettings } from '#shared/types/chat-parameters'
import { getDatabase } from './database'
import type { ThreadRecord } from './types'

/** What a chat asks of the model besides its messages: its system prompt, parameters and model (from a preset). */
export interface ThreadChatSettings extends ChatSettings {
  /** Empty or undefined: the model chosen in Settings. */
  chatModel?: string
}

/** Settings that cannot be stored; `message` says which field and why, in words the form can show. */
export class ChatSettingsError extends RangeError {
  override readonly name = 'ChatSettingsError'
}

/** The settings as stored: blank prompt and unset parameters left out; throws ChatSettingsError when invalid. */
export function normalizeChatSettings(settings: ThreadChatSettings): Pick<ThreadRecord, 'systemPrompt' | 'parameters' | 'chatModel'> {
  const issue = checkChatSettings(settings)[0]
  if (issue) throw new ChatSettingsError(issue.message)
  const chatModel = settings.chatModel?.trim()
  if (chatModel && chatModel.length > 200) throw new ChatSettingsError('The model id is too long (200 characters at most).')
  return {
    systemPrompt: settings.systemPrompt?.trim() ? settings.systemPrompt : undefined,
    parameters: setParameters(settings.parameters),
    chatModel: chatModel || undefined,
  }
}

/** A chat's settings (all undefined for a chat that has none, or no such chat). */
export async function getThreadChatSettings(threadId: string): Promise<ThreadChatSettings> {
  const thread = await getDatabase().threads.get(threadId)
  return { systemPrompt: thread?.systemPrompt, parameters: thread?.parameters, chatModel: thread?.chatModel }
}

/**
 * Stores a chat's system prompt, parameters and model, checked first (ChatSettingsError). Does not move the chat in
 * the list: `updatedAt` means "last message".
 */
export async function setThreadChatSettings(threadId: string, settings: ThreadChatSettings): Promise<void> {
  const stored = normalizeChatSettings(settings)
  const updated = await getDatabase().threads.update(threadId, stored)
  if (!updated && !(await getDatabase().threads.get(threadId))) {
    throw new StorageError(`Chat ${threadId} does not exist.`, { operation: 'save chat settings' })
  }
}
