import type { ModelMessage, ToolMessage, UserMessage } from '#shared/types/chat'
import { MISSING_TOOL_RESULT, repairToolHistory } from '#shared/history/repair-tool-history'
import type { MessageRecord } from './types'

export { MISSING_TOOL_RESULT }

/**
 * Turns stored rows into exactly the OpenAI history the model must see, always valid:
 * - system and user rows as they are; errored rows with no content are left out;
 * - assistant rows with their `tool_calls` (content null when empty); rows with neither text nor calls are left out;
 * - tool rows only right after the assistant row whose call they answer (others, and duplicates, are dropped);
 * - every call left without a result gets a synthetic cancelled result after the real ones, because providers
 *   reject a history in which a tool call has no answer;
 * - calls cut by Stop or an error mid-arguments, or never named, are repaired last (repairToolHistory): the rows
 *   keep what the model wrote, for the card, while the model only ever reads calls a strict server accepts.
 */
export interface ToModelMessagesOptions {
  /**
   * The content a user row is sent with, when it differs from its text (images as parts, attached files named);
   * undefined keeps the row's text.
   */
  userContent?: (record: MessageRecord) => UserMessage['content'] | undefined
}

export function toModelMessages(records: readonly MessageRecord[], options: ToModelMessagesOptions = {}): ModelMessage[] {
  const ordered = [...records].sort((a, b) => a.seq - b.seq)
  const history: ModelMessage[] = []
  /** Calls of the latest assistant row still waiting for a result, in the model's order: id → tool name. */
  let openCalls = new Map<string, string>()

  const closeOpenCalls = () => {
    for (const [id, name] of openCalls) history.push({ role: 'tool', tool_call_id: id, name, content: MISSING_TOOL_RESULT })
    openCalls = new Map()
  }

  for (const record of ordered) {
    const hasContent = record.content.trim().length > 0
    if (record.status === 'error' && !hasContent) continue

    if (record.role === 'tool') {
      const callId = record.toolCallId
      // a call still waiting for the user has no result yet: it reads as unanswered
      if (!callId || !openCalls.has(callId) || record.toolStatus === 'awaiting-approval') continue
      const message: ToolMessage = { role: 'tool', tool_call_id: callId, name: record.toolName ?? openCalls.get(callId), content: record.content }
      openCalls.delete(callId)
      history.push(message)
      continue
    }

    closeOpenCalls()
    if (record.role === 'assistant') {
      const toolCalls = record.toolCalls ?? []
      if (!hasContent && toolCalls.length === 0) continue
      if (toolCalls.length === 0) {
        history.push({ role: 'assistant', content: record.content })
        continue
      }
      history.push({ role: 'assistant', content: hasContent ? record.content : null, tool_calls: toolCalls })
      for (const call of toolCalls) openCalls.set(call.id, call.function.name)
      continue
    }
    if (record.role === 'user') history.push({ role: 'user', content: options.userContent?.(record) ?? record.content })
    else history.push({ role: record.role, content: record.content })
  }
  closeOpenCalls()
  return repairToolHistory(history)
}
