import type { AssistantMessage, ToolCall } from '../types/chat'
import type { ToolResult } from '../tools/tool-types'
import type { CallState, ConversationState } from './conversation-state'
import { isStepCut } from './conversation-state'

/** What the model and the card are told about a call whose run was cut and that is not safe to run again. */
export const INTERRUPTED_TOOL_MESSAGE = 'The server stopped while this tool ran; it may or may not have completed. It was not run again, so check before asking for it again.'

/** The result a cut call gets instead of running twice: an error the model can act on, shown on its card. */
export function interruptedToolResult(call: ToolCall, at = Date.now()): ToolResult {
  const content = `Error: ${INTERRUPTED_TOOL_MESSAGE}`
  return {
    callId: call.id, name: call.function.name, arguments: call.function.arguments, status: 'error',
    content, fullContent: content, truncated: false, error: { kind: 'interrupted', message: INTERRUPTED_TOOL_MESSAGE }, startedAt: at, finishedAt: at,
  }
}

/**
 * The reply of a half-run step that a resume finishes: the last step's reply, complete with tool calls and not cut
 * by Stop or an error. Undefined otherwise: a reply cut while it streamed is asked again from the start.
 */
export function resumableReply(state: ConversationState): AssistantMessage | undefined {
  const message = state.step?.message
  if (!message?.tool_calls?.length || isStepCut(state)) return undefined
  return message
}

export interface ResumeCallHandlers {
  /** Runs a call cleared to run, reporting it. */
  run: (call: ToolCall) => Promise<ToolResult>
  /** Decides the call as the loop would and runs it; `asked`: the user was already asked and the answer decides. */
  decideAndRun: (call: ToolCall, asked: boolean) => Promise<ToolResult>
  /** Reports a result the call ends with without running. */
  end: (result: ToolResult) => Promise<ToolResult>
  /** Whether a call that started and never ended may run again (it has no effect outside the app). */
  isSafeToRepeat: (toolName: string) => boolean
}

/**
 * Ends one call of a resumed step: a call that ended keeps its result; a call that started and never ended runs
 * again only when it is safe to repeat, else it ends as interrupted (never silently twice); a call cleared to run
 * runs; a call left waiting for the user waits for the answer again; any other is decided as the loop would.
 */
export function resumeCall(call: ToolCall, state: CallState | undefined, handlers: ResumeCallHandlers): Promise<ToolResult> {
  if (state?.result) return Promise.resolve(state.result)
  const latest = state?.call ?? call
  if (state?.status === 'running') return handlers.isSafeToRepeat(latest.function.name) ? handlers.run(latest) : handlers.end(interruptedToolResult(latest))
  if (state?.status === 'cleared') return handlers.run(latest)
  return handlers.decideAndRun(call, state?.status === 'awaiting-approval')
}
