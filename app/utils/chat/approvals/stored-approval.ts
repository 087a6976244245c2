import { createEventChannel } from '#shared/loop/event-channel'
import { toolCallEndEvent } from '#shared/loop/loop-event'
import type { LoopEvent } from '#shared/loop/loop-event'
import { DENIED_CONTENT, deniedToolResult, withArguments } from '#shared/loop/tool-approval'
import type { ToolApprovalAnswer } from '#shared/loop/tool-approval'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import type { ToolSet } from '#shared/tools/tool-types'
import type { ToolCall } from '#shared/types/chat'
import { getDatabase } from '~/db/database'
import type { MessageRecord } from '~/db/types'

/** What the model and the card read for a call left waiting when the user wrote on instead of answering it. */
export const UNANSWERED_CONTENT = 'Not run: the user went on with the chat without answering.'

/**
 * The user sent a new message while a call (left by a reload) still waited: it will never run, so its row says so
 * and its card stops asking. Resolves with the number of calls closed.
 */
export async function closeWaitingCalls(threadId: string): Promise<number> {
  const db = getDatabase()
  return db.messages.where('threadId').equals(threadId).filter(row => row.toolStatus === 'awaiting-approval').modify((row) => {
    row.toolStatus = 'cancelled'
    row.status = 'complete'
    row.content = UNANSWERED_CONTENT
    row.updatedAt = Date.now()
  })
}

/** The call a stored row waits on (from the assistant row that made it), or undefined when none waits. */
export function findWaitingCall(rows: readonly MessageRecord[], callId: string): { call: ToolCall, step: number } | undefined {
  const row = rows.find(candidate => candidate.role === 'tool' && candidate.toolCallId === callId && candidate.toolStatus === 'awaiting-approval')
  if (!row) return undefined
  const assistants = rows.filter(candidate => candidate.role === 'assistant')
  const index = assistants.findLastIndex(candidate => candidate.toolCalls?.some(call => call.id === callId))
  const call = assistants[index]?.toolCalls?.find(candidate => candidate.id === callId)
    ?? { id: callId, type: 'function' as const, function: { name: row.toolName ?? '', arguments: row.toolArguments ?? '' } }
  return { call, step: Math.max(1, index + 1) }
}

/** True while some call of the thread still waits for the user. */
export function hasWaitingCalls(rows: readonly MessageRecord[]): boolean {
  return rows.some(row => row.role === 'tool' && row.toolStatus === 'awaiting-approval')
}

export interface RunStoredApprovalOptions {
  threadId: string
  call: ToolCall
  step: number
  answer: ToolApprovalAnswer
  tools: ToolSet
  signal?: AbortSignal
  /** The recorder's listener (and whoever else follows the run). */
  onEvent: (event: LoopEvent) => Promise<void> | void
}

/**
 * Answers a call whose wait did not survive a reload, with the same events the loop would have sent: the decision,
 * then the call run with the (maybe edited) arguments, or its denied result. The caller goes on with the chat.
 */
export async function runStoredApproval(options: RunStoredApprovalOptions): Promise<void> {
  const { call, step, answer } = options
  const events = createEventChannel(options.onEvent)
  const asked = call.function.arguments
  const argumentsText = answer.decision === 'denied' ? asked : (answer.arguments ?? asked)
  await events.emit({
    type: 'tool-call-approval', step, callId: call.id, toolName: call.function.name,
    decision: answer.decision, arguments: argumentsText, askedArguments: asked, decidedAt: Date.now(),
  })
  if (answer.decision === 'denied') {
    await events.emit(toolCallEndEvent(step, deniedToolResult(call, 'denied-by-user', DENIED_CONTENT)))
    return
  }
  await executeToolCalls([argumentsText === asked ? call : withArguments(call, argumentsText)], options.tools, {
    threadId: options.threadId,
    signal: options.signal,
    onStart: started => events.emit({ type: 'tool-call-running', step, call: started }),
    onStatus: (callId, text) => events.post({ type: 'tool-call-status', step, callId, text }),
    onResult: result => events.emit(toolCallEndEvent(step, result)),
  })
  await events.drain()
}
