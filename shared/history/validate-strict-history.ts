import type { AssistantMessage, ModelMessage } from '../types/chat'
import { isJsonObjectText, isValidToolName } from './tool-call-shape'

/** The rules a strict OpenAI-compatible server enforces on a replayed history, one name per way to break them. */
export type HistoryRule =
  | 'message-role'
  | 'assistant-empty'
  | 'assistant-empty-tool-calls'
  | 'tool-call-type'
  | 'tool-call-id'
  | 'tool-call-duplicate-id'
  | 'tool-call-name'
  | 'tool-call-arguments'
  | 'tool-call-unanswered'
  | 'tool-result-orphan'
  | 'tool-result-duplicate'
  | 'tool-result-order'
  | 'tool-result-content'

/** One way in which a history breaks a rule, pointing at the message (and the call) to blame. */
export interface HistoryViolation {
  /** Index of the offending message in the list given. */
  index: number
  rule: HistoryRule
  /** The call concerned, when the rule is about one. */
  callId?: string
  /** A sentence for logs and test failures. */
  message: string
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool'])

/**
 * Lists every reason a strict OpenAI-compatible server would reject `messages` (empty list: it would accept them).
 * Stricter than OpenAI itself where other servers are: arguments must be JSON object text (not `""`), call ids
 * unique over the whole history, and each call's one `tool` answer must come right after its assistant message,
 * in the calls' order, before any other message.
 */
export function validateStrictHistory(messages: readonly ModelMessage[]): HistoryViolation[] {
  const violations: HistoryViolation[] = []
  const report = (index: number, rule: HistoryRule, message: string, callId?: string) =>
    violations.push({ index, rule, message, ...(callId !== undefined ? { callId } : {}) })
  const seenIds = new Set<string>()
  /** The calls of the latest assistant message still to be answered, in order, while its tool block lasts. */
  let block: { index: number, expected: string[], answered: Set<string> } | undefined

  const closeBlock = () => {
    if (!block) return
    for (const id of block.expected) {
      if (!block.answered.has(id)) report(block.index, 'tool-call-unanswered', `call "${id}" has no tool message answering it`, id)
    }
    block = undefined
  }

  messages.forEach((message, index) => {
    const role = (message as { role?: unknown })?.role
    if (typeof role !== 'string' || !ROLES.has(role)) {
      closeBlock()
      report(index, 'message-role', `unknown role ${JSON.stringify(role)}`)
      return
    }
    if (message.role === 'tool') {
      if (typeof message.content !== 'string') report(index, 'tool-result-content', 'tool message content must be a string')
      const id = message.tool_call_id
      if (!block || !block.expected.includes(id)) {
        report(index, 'tool-result-orphan', `tool message answers "${id}", which the assistant message before it did not call`, id)
        return
      }
      if (block.answered.has(id)) {
        report(index, 'tool-result-duplicate', `call "${id}" is answered more than once`, id)
        return
      }
      if (block.expected[block.answered.size] !== id) report(index, 'tool-result-order', `call "${id}" is answered out of the calls' order`, id)
      block.answered.add(id)
      return
    }
    closeBlock()
    if (message.role === 'assistant') block = checkAssistant(message, index, seenIds, report)
  })
  closeBlock()
  return violations
}

type Report = (index: number, rule: HistoryRule, message: string, callId?: string) => void

/** Checks one assistant message and its calls; returns the tool block its calls open, if any. */
function checkAssistant(message: AssistantMessage, index: number, seenIds: Set<string>, report: Report) {
  const calls = message.tool_calls
  const hasText = typeof message.content === 'string' && message.content !== ''
  if (calls !== undefined && (!Array.isArray(calls) || calls.length === 0)) {
    report(index, 'assistant-empty-tool-calls', '`tool_calls` must be left out rather than empty')
  }
  const list = Array.isArray(calls) ? calls : []
  if (!hasText && list.length === 0) report(index, 'assistant-empty', 'assistant message has neither content nor tool calls')
  if (list.length === 0) return undefined

  const expected: string[] = []
  for (const call of list) {
    const id = call?.id
    if (typeof id !== 'string' || id === '') {
      report(index, 'tool-call-id', 'a tool call has no id')
      continue
    }
    if (seenIds.has(id)) report(index, 'tool-call-duplicate-id', `call id "${id}" is used more than once`, id)
    seenIds.add(id)
    if (call.type !== 'function') report(index, 'tool-call-type', `call "${id}" has type ${JSON.stringify(call.type)}, not "function"`, id)
    if (!isValidToolName(call.function?.name)) report(index, 'tool-call-name', `call "${id}" has no valid name (${JSON.stringify(call.function?.name)})`, id)
    if (!isJsonObjectText(call.function?.arguments)) report(index, 'tool-call-arguments', `call "${id}" has arguments that are not JSON object text`, id)
    if (!expected.includes(id)) expected.push(id)
  }
  return { index, expected, answered: new Set<string>() }
}
