import type { ChatModel } from '#shared/loop/chat-model'
import { createServerChatModel } from './server-chat-model'

export interface UserKeyChatModelOptions {
  /** The user's own OpenRouter key: used for the requests, never stored, logged or put in an event. */
  apiKey: string
  /** The server's OpenRouter base URL (`NUXT_OPENROUTER_BASE_URL`): the key goes nowhere else. */
  baseUrl: string
  model: string
  appUrl?: string
  appTitle?: string
}

/**
 * A ChatModel on OpenRouter with the user's own key, for "Keep running when I close the tab". The operator's model
 * policy guards the server's key and does not apply: the user pays for these requests, as in the tab.
 */
export function createUserKeyChatModel(options: UserKeyChatModelOptions): ChatModel {
  return createServerChatModel({ ...options, policy: undefined })
}
