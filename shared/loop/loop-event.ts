import type { AssistantMessage, TokenUsage, ToolCall } from '../types/chat'
import type { ToolResult } from '../tools/tool-types'
import type { LoopFailure, LoopFinishReason, LoopNotice } from './loop-types'

/**
 * Everything `runChatLoop` reports, on one channel and in order. Plain JSON data, so the same events are the wire
 * format of a chat running on the server (`GET /api/chats/:id/events`): the browser records a chat the same way
 * wherever its loop ran. Every event but `finish`/`fail` carries its 1-based `step`.
 *
 * Order within one step: `step-start`, then `text-delta` / `reasoning-delta` / `tool-call-queued` as they stream,
 * then `step-finish` (the assistant message, exactly once, before any tool runs), then per call
 * `tool-call-running` → `tool-call-status`* → `tool-call-done` | `tool-call-error` (calls run concurrently, so calls
 * interleave), and `notice` wherever the loop has something to tell the user. The run ends with exactly one
 * `finish` or `fail`.
 */
export type LoopEvent =
  /** A new model request starts. */
  | { type: 'step-start', step: number }
  /** Visible text, tool-call markup already removed. */
  | { type: 'text-delta', step: number, text: string }
  | { type: 'reasoning-delta', step: number, text: string }
  /** The model named a tool while streaming: its card shows "queued". `index` counts within the step. */
  | { type: 'tool-call-queued', step: number, index: number, callId: string, toolName: string }
  /**
   * The model's reply of this step is complete (with its tool calls, if any), before any of them runs.
   * `finishReason` is the provider's, or 'aborted' / 'error' when the step was cut.
   */
  | { type: 'step-finish', step: number, message: AssistantMessage, finishReason: string, usage?: TokenUsage }
  /**
   * A call that needed the user's say is waiting for it (its tool's policy is 'ask'): its card shows the arguments and
   * Allow once / Always allow / Deny. The loop waits (Stop still works).
   */
  | { type: 'tool-call-awaiting-approval', step: number, call: ToolCall }
  /**
   * What decided whether a call runs, before it runs (or instead of it): 'auto' (its policy runs it without asking),
   * 'allowed-once', 'always-allowed', 'denied' (the user said no), 'never' (its policy refuses), 'no-answer'
   * (nobody answered within the wait limit of a server job). `arguments` is
   * what runs (the user may have edited them); `askedArguments` what the model asked for.
   */
  | { type: 'tool-call-approval', step: number, callId: string, toolName: string, decision: ToolApprovalDecision, arguments: string, askedArguments: string, decidedAt: number }
  /** A call's handler starts (its arguments are final). */
  | { type: 'tool-call-running', step: number, call: ToolCall }
  /** A handler reported progress with `context.status(text)`. */
  | { type: 'tool-call-status', step: number, callId: string, text: string }
  /** A call succeeded; `result.status` is 'done'. */
  | { type: 'tool-call-done', step: number, result: ToolResult }
  /** A call ended without a result: status 'error', 'cancelled' (Stop, or never run) or 'skipped' (a repeat). */
  | { type: 'tool-call-error', step: number, result: ToolResult }
  /** Something the user should know about the loop itself (step cap, repeated call...). */
  | { type: 'notice', step: number, notice: LoopNotice }
  /** The run ended without a failure of its own: answered, stopped, capped or cut by the length limit. */
  | { type: 'finish', finishReason: Exclude<LoopFinishReason, 'error'>, steps: number }
  /** The run ended because the provider (or building the model) failed; `error` is what the user sees. */
  | { type: 'fail', steps: number, error: LoopFailure }

export type LoopEventType = LoopEvent['type']

/** How a call came to run or not (see the `tool-call-approval` event). */
export type ToolApprovalDecision = 'auto' | 'allowed-once' | 'always-allowed' | 'denied' | 'never' | 'no-answer'

/** The one listener of a run. Awaited: the loop goes on once it settles, and a rejection ends the run with it. */
export type LoopEventHandler = (event: LoopEvent) => void | Promise<void>

/** The tool-call events that end a call, with their result. */
export function isToolCallEnd(event: LoopEvent): event is Extract<LoopEvent, { type: 'tool-call-done' | 'tool-call-error' }> {
  return event.type === 'tool-call-done' || event.type === 'tool-call-error'
}

/** The event that ends a call: `tool-call-done` for a result, `tool-call-error` for anything else. */
export function toolCallEndEvent(step: number, result: ToolResult): Extract<LoopEvent, { type: 'tool-call-done' | 'tool-call-error' }> {
  return result.status === 'done' ? { type: 'tool-call-done', step, result } : { type: 'tool-call-error', step, result }
}
