import type { AssistantMessage, ModelMessage, TokenUsage, ToolCall, ToolMessage } from '../types/chat'
import type { ProviderError } from '../errors/provider-error'
import type { ToolResult, ToolSet } from '../tools/tool-types'
import type { ChatModel } from './chat-model'

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
export interface LoopNotice { kind: 'step-cap' | 'repeated-call' | 'text-tool-calls' | 'truncated-result', message: string }

/** Everything the UI and the store hear, in order. All callbacks are optional. */
export interface LoopCallbacks {
  /** A new model request starts (step is 1-based). */
  onStepStart?: (step: number) => void
  /** Visible text (tool-call markup already removed). */
  onTextDelta?: (text: string, step: number) => void
  onReasoningDelta?: (text: string, step: number) => void
  /** A call's name became known while streaming (card shows "queued"). */
  onToolCallStreaming?: (call: { index: number, id: string, name: string }, step: number) => void
  /**
   * The assistant message of this step is complete (with its tool_calls if any). Called exactly once per step,
   * before any tool runs, so the store can finalise it.
   */
  onAssistantMessage?: (message: AssistantMessage, info: { step: number, finishReason: string, usage?: TokenUsage }) => void | Promise<void>
  onToolCallStart?: (call: ToolCall, step: number) => void
  onToolCallStatus?: (callId: string, text: string) => void
  /** One result, as soon as it is known (not necessarily in the model's order). */
  onToolResult?: (result: ToolResult, step: number) => void | Promise<void>
  /** All results of a step, in the model's order, as tool messages. */
  onToolMessages?: (messages: ToolMessage[], results: ToolResult[], step: number) => void | Promise<void>
  onNotice?: (notice: LoopNotice) => void
  onUsage?: (usage: TokenUsage, step: number) => void
}

export interface RunChatLoopOptions {
  model: ChatModel
  /** The whole history as the model should see it (system, user, assistant with tool_calls, tool). */
  messages: ModelMessage[]
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
  callbacks?: LoopCallbacks
}

export interface RunChatLoopResult {
  finishReason: LoopFinishReason
  /** Messages this run added to the history, in order. */
  messages: ModelMessage[]
  steps: number
  error?: ProviderError | Error
}
