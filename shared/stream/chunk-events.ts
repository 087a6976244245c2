import type { TokenUsage } from '../types/chat'
import type { StreamEvent } from './stream-event'
import { providerErrorFromStreamError } from './provider-error-from-response'
import { isRecord } from '../types/is-record'

type JsonObject = Record<string, unknown>

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

/** Choice 0 drives the events; with `n > 1` the other choices are ignored. No `index` field counts as index 0. */
function firstChoice(choices: unknown): JsonObject | undefined {
  if (!Array.isArray(choices)) return undefined
  for (const choice of choices) {
    if (isRecord(choice) && (choice.index === 0 || choice.index === undefined)) return choice
  }
  return undefined
}

/** Text of `reasoning_details` entries: `reasoning.text` has `text`, `reasoning.summary` has `summary`; encrypted has none. */
function reasoningDetailsText(details: unknown): string {
  if (!Array.isArray(details)) return ''
  let text = ''
  for (const detail of details) {
    if (!isRecord(detail)) continue
    if (nonEmptyString(detail.text)) text += detail.text
    else if (nonEmptyString(detail.summary)) text += detail.summary
  }
  return text
}

/**
 * Reasoning of one delta. OpenRouter sends the same text twice, as `reasoning` and as `reasoning_details`, so
 * `reasoning` wins when it is non-empty; `reasoning_content` (DeepSeek, xAI, Z.ai) next; `reasoning_details` alone
 * (e.g. Snowflake's Claude) last.
 */
function reasoningOf(delta: JsonObject): string {
  if (nonEmptyString(delta.reasoning)) return delta.reasoning
  if (nonEmptyString(delta.reasoning_content)) return delta.reasoning_content
  return reasoningDetailsText(delta.reasoning_details)
}

/** Mistral's Magistral sends `content` as parts: `{type:'text',text}` and `{type:'thinking',thinking:[{type:'text',text}]}`. */
function pushContentParts(parts: unknown[], events: StreamEvent[]): void {
  for (const part of parts) {
    if (!isRecord(part)) continue
    if (part.type === 'text' && nonEmptyString(part.text)) events.push({ type: 'text-delta', text: part.text })
    else if (part.type === 'thinking') {
      const thinking = Array.isArray(part.thinking) ? reasoningDetailsText(part.thinking) : typeof part.thinking === 'string' ? part.thinking : ''
      if (thinking !== '') events.push({ type: 'reasoning-delta', text: thinking })
    }
  }
}

function pushToolCallDeltas(toolCalls: unknown[], events: StreamEvent[]): void {
  toolCalls.forEach((toolCall, position) => {
    if (!isRecord(toolCall)) return
    const fn = isRecord(toolCall.function) ? toolCall.function : {}
    const event: Extract<StreamEvent, { type: 'tool-call-delta' }> = {
      type: 'tool-call-delta',
      // Some servers (Gemini's OpenAI endpoint) omit `index`; the position in the array is the best guess then.
      index: typeof toolCall.index === 'number' ? toolCall.index : position,
    }
    // Continuation chunks of Alibaba and Mistral repeat `"id":""` / `"name":""`: empty means "not sent".
    if (nonEmptyString(toolCall.id)) event.id = toolCall.id
    if (nonEmptyString(fn.name)) event.name = fn.name
    if (nonEmptyString(fn.arguments)) event.argumentsDelta = fn.arguments
    else if (isRecord(fn.arguments)) event.argumentsDelta = JSON.stringify(fn.arguments)
    if (event.id !== undefined || event.name !== undefined || event.argumentsDelta !== undefined) events.push(event)
  })
}

function usageOf(usage: JsonObject): TokenUsage {
  const result: TokenUsage = {}
  if (typeof usage.prompt_tokens === 'number') result.promptTokens = usage.prompt_tokens
  if (typeof usage.completion_tokens === 'number') result.completionTokens = usage.completion_tokens
  if (typeof usage.total_tokens === 'number') result.totalTokens = usage.total_tokens
  const details = usage.completion_tokens_details
  if (isRecord(details) && typeof details.reasoning_tokens === 'number') result.reasoningTokens = details.reasoning_tokens
  if (typeof usage.cost === 'number') result.cost = usage.cost
  return result
}

/**
 * Appends the events carried by one parsed `chat.completion.chunk` to `events`, in this order: reasoning, text
 * (refusal text counts as text), tool-call deltas, finish, usage, error. Returns true when the chunk carried an error
 * (a top-level `error` object or `finish_reason: 'error'`): the reader stops there.
 */
export function pushChunkEvents(chunk: unknown, events: StreamEvent[]): boolean {
  if (!isRecord(chunk)) return false
  const choice = firstChoice(chunk.choices)
  if (choice) {
    const delta = isRecord(choice.delta) ? choice.delta : undefined
    if (delta) {
      const reasoning = reasoningOf(delta)
      if (reasoning !== '') events.push({ type: 'reasoning-delta', text: reasoning })
      if (nonEmptyString(delta.content)) events.push({ type: 'text-delta', text: delta.content })
      else if (Array.isArray(delta.content)) pushContentParts(delta.content, events)
      if (nonEmptyString(delta.refusal)) events.push({ type: 'text-delta', text: delta.refusal })
      if (Array.isArray(delta.tool_calls)) pushToolCallDeltas(delta.tool_calls, events)
    }
    if (nonEmptyString(choice.finish_reason)) events.push({ type: 'finish', reason: choice.finish_reason })
  }
  if (isRecord(chunk.usage)) events.push({ type: 'usage', usage: usageOf(chunk.usage) })
  if (chunk.error !== undefined && chunk.error !== null) {
    events.push({ type: 'error', error: providerErrorFromStreamError(chunk.error) })
    return true
  }
  if (choice?.finish_reason === 'error') {
    events.push({ type: 'error', error: providerErrorFromStreamError(isRecord(choice.error) ? choice.error : undefined) })
    return true
  }
  return false
}
