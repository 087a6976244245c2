import { createConversationState, foldLoopEvents } from '#shared/loop/conversation-state'
import type { ConversationState } from '#shared/loop/conversation-state'
import { toolCallEndEvent } from '#shared/loop/loop-event'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolResult, ToolResultStatus } from '#shared/tools/tool-types'
import type { ModelMessage, ToolCall } from '#shared/types/chat'
import { getDatabase } from '~/db/database'
import { toModelMessages } from '~/db/messages'
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

/** What `runChatLoop({ messages, resume })` needs to finish a step whose call waited across a reload. */
export interface StoredResume {
  /** The history before the cut step. */
  messages: ModelMessage[]
  /** The cut step as its rows left it: its reply, the calls that ended with their results, the calls still waiting. */
  resume: ConversationState
}

const ENDED: ReadonlySet<string> = new Set<ToolResultStatus>(['done', 'error', 'cancelled', 'skipped', 'denied'])

/**
 * The resume of the step whose call `callId` waits (undefined when none waits): its assistant row's reply (with the
 * arguments the user edited) and its tool rows, folded by the same reducer as the loop's own events.
 */
export function storedResume(rows: readonly MessageRecord[], callId: string): StoredResume | undefined {
  if (!findWaitingCall(rows, callId)) return undefined
  const ordered = [...rows].sort((a, b) => a.seq - b.seq)
  const at = ordered.findLastIndex(row => row.role === 'assistant' && row.toolCalls?.some(call => call.id === callId))
  const assistant = ordered[at]
  if (!assistant?.toolCalls) return undefined
  const calls = new Map(assistant.toolCalls.map(call => [call.id, call]))
  const events: LoopEvent[] = [
    { type: 'step-start', step: 1 },
    { type: 'step-finish', step: 1, message: { role: 'assistant', content: assistant.content === '' ? null : assistant.content, tool_calls: assistant.toolCalls }, finishReason: 'tool_calls' },
  ]
  for (const row of ordered.slice(at + 1)) {
    const call = row.role === 'tool' && row.toolCallId ? calls.get(row.toolCallId) : undefined
    if (!call) continue
    if (row.toolStatus === 'awaiting-approval') events.push({ type: 'tool-call-awaiting-approval', step: 1, call })
    // A call that started and never ended is not run again: the loop ends it as interrupted.
    else if (row.toolStatus === 'running') events.push({ type: 'tool-call-running', step: 1, call })
    else if (row.toolStatus && ENDED.has(row.toolStatus)) events.push(toolCallEndEvent(1, storedResult(row, call)))
  }
  return { messages: toModelMessages(ordered.slice(0, at)), resume: foldLoopEvents(events, createConversationState()) }
}

/** A stored tool row's result, as far as a resume needs it: the model reads its content. */
function storedResult(row: MessageRecord, call: ToolCall): ToolResult {
  return {
    callId: call.id, name: call.function.name, arguments: row.toolArguments ?? call.function.arguments, status: row.toolStatus as ToolResultStatus,
    content: row.content, fullContent: row.toolResultFull ?? row.content, truncated: row.truncated ?? false, startedAt: row.startedAt ?? 0, finishedAt: row.finishedAt ?? 0,
  }
}
