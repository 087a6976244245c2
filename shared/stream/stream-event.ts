import type { TokenUsage } from '../types/chat'
import type { ProviderError } from '../errors/provider-error'

/**
 * What the stream reader yields, one union member per kind of thing a chat-completions stream carries.
 * Names follow noun-verb: `text-delta`, `tool-call-delta`, ...
 */
export type StreamEvent =
  | { type: 'text-delta', text: string }
  | { type: 'reasoning-delta', text: string }
  /** A fragment of one tool call. `index` groups fragments; id/name arrive usually once, arguments in pieces. */
  | { type: 'tool-call-delta', index: number, id?: string, name?: string, argumentsDelta?: string }
  | { type: 'usage', usage: TokenUsage }
  /** The provider's `finish_reason` for choice 0 (`stop`, `tool_calls`, `length`, ...). */
  | { type: 'finish', reason: string }
  /** An error object inside the stream or an `event: error`. The reader stops after yielding it. */
  | { type: 'error', error: ProviderError }
  /** End of stream: `[DONE]` seen, or the body ended without it (`sawDoneSentinel: false`). */
  | { type: 'done', sawDoneSentinel: boolean }
