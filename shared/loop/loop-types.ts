import type { ModelMessage } from '../types/chat'
import type { ChatParameters } from '../types/chat-parameters'
import type { ProviderError } from '../errors/provider-error'
import type { ToolSet } from '../tools/tool-types'
import type { ChatModel } from './chat-model'
import type { LoopEventHandler } from './loop-event'
import type { ApproveToolCall, ToolPolicyLookup } from './tool-approval'
import type { ConversationState } from './conversation-state'
import type { CodedParams, CodedText } from '../errors/coded-text'

/**
 * How tool calls are read from the model:
 * - 'native': only the provider's `tool_calls`.
 * - 'auto': native, and also calls of offered tools that the model writes as text (detected and parsed).
 * - 'text': tools are described in a system message instead of `tools`, and calls are parsed from the text
 *   (for local models without native tool calling).
 */
export type ToolCallMode = 'native' | 'auto' | 'text'

/** Why the loop stopped. */
export type LoopFinishReason = 'stop' | 'step-cap' | 'aborted' | 'error' | 'length'

/** A short message for the user about the loop itself (step cap, repeated call, text tool calls detected). */
/** `code` and `params`: `message` as a code (shared/loop/loop-messages.ts) for the user's language. */
export interface LoopNotice { kind: 'step-cap' | 'repeated-call' | 'text-tool-calls' | 'truncated-result', message: string, code?: string, params?: CodedParams }

/** A failure of the run itself as the user sees it: plain data, so it can travel in a `fail` event. */
export interface LoopFailure {
  kind: string
  message: string
  /** Whether pressing Retry may help. */
  retryable: boolean
  retryAfterMs?: number
  /** The provider's own wording, when it adds something to `message`. */
  providerMessage?: string
  /** `message` as a code (shared/errors/coded-text.ts) for the app to show in the user's language. */
  code?: string
  params?: CodedParams
  /** The coded sentence quoted as `{reason}` in it (a server's refusal), said in the same language. */
  reason?: CodedText
}

export interface RunChatLoopOptions {
  model: ChatModel
  /** The whole history as the model should see it (system, user, assistant with tool_calls, tool). */
  messages: ModelMessage[]
  /** Sampling parameters sent with every request of the run (shared/stream/parameter-fields.ts). @default none */
  parameters?: ChatParameters
  /** Tools offered on this request (already filtered to enabled and available). */
  tools: ToolSet
  threadId: string
  signal?: AbortSignal
  /** Model requests at most. @default 10 */
  maxSteps?: number
  /** @default 'auto' */
  toolCallMode?: ToolCallMode
  /** Default handler timeout in ms. @default 10_000 */
  toolTimeoutMs?: number
  /** Results longer than this (characters) are cut for the model with a note. @default 32_768 */
  maxResultChars?: number
  /** The same call this many times in a row is not run again. @default 3 */
  repeatLimit?: number
  /**
   * The approval policy of each tool on this run ('auto' runs it, 'ask' calls `approveToolCall` first, 'never'
   * refuses it). @default every tool 'auto'
   */
  toolPolicy?: ToolPolicyLookup
  /**
   * Asks the user about a call whose policy is 'ask'; the loop waits for the answer (Stop ends the wait). Without
   * it such calls are not run. @default undefined
   */
  approveToolCall?: ApproveToolCall
  /** Hears every LoopEvent, in order; awaited before the loop goes on. */
  onEvent?: LoopEventHandler
  /**
   * A half-run step to finish first (a reply whose calls did not all end: a server run taken over, an approval
   * answered after a reload), as the fold of its events left it (conversation-state.ts). `messages` is the history
   * before that step. The step is step 1 of this run and is not asked again: calls that ended keep their results,
   * calls that started and never ended run again only when `isSafeToRepeat`, else they end as interrupted; calls
   * cleared to run run; calls waiting for the user wait again; the rest are decided as usual. Then the loop goes on.
   * A state whose last reply was cut or is incomplete is ignored (the step is asked again).
   */
  resume?: ConversationState
  /** With `resume`: whether a call cut while it ran may run again. @default never */
  isSafeToRepeat?: (toolName: string) => boolean
}

export interface RunChatLoopResult {
  finishReason: LoopFinishReason
  /** Messages this run added to the history, in order. */
  messages: ModelMessage[]
  steps: number
  error?: ProviderError | Error
}
