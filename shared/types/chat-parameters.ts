/** How hard a reasoning model thinks before it answers (OpenRouter's `reasoning.effort`). */
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const
export type ReasoningEffort = typeof REASONING_EFFORTS[number]

/**
 * A chat's sampling parameters; a field left out is not sent (the provider's default applies). Checked by
 * `checkChatParameters` (shared/loop/chat-settings.ts) wherever they come in.
 */
export interface ChatParameters {
  /** 0..2 */
  temperature?: number
  /** 0..1 */
  topP?: number
  /** A positive integer up to MAX_TOKENS_CAP. */
  maxTokens?: number
  /** Sent only to models that take `reasoning` (OpenRouter's `supported_parameters`). */
  reasoningEffort?: ReasoningEffort
}

/** What a chat (or a preset) asks of the model besides its messages. */
export interface ChatSettings {
  /** Sent as the request's first `system` message. */
  systemPrompt?: string
  parameters?: ChatParameters
}

export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const
export const TOP_P_RANGE = { min: 0, max: 1 } as const
/** No model writes more in one reply; a larger number is a typo. */
export const MAX_TOKENS_CAP = 200_000
/** A system prompt longer than this is refused with a message (it is sent with every request). */
export const SYSTEM_PROMPT_MAX_CHARS = 20_000
