import type { ModelMessage, ToolCall } from '../types/chat'
import { parseToolArguments } from '../tools/validate-tool-arguments'

/**
 * Spots a model stuck calling one tool with the same arguments over and over. Counts, per tool name,
 * how many consecutive calls of that tool had the same (normalised) arguments.
 */
export interface RepeatTracker {
  /** Records the call and returns true when it is the `limit`-th identical call in a row (or later). */
  isRepeat: (call: ToolCall) => boolean
}

/**
 * @param limit The same call this many times in a row is refused.
 * @param history Earlier messages; calls after the last user message count, so Continue does not reset the count
 *   while a new question (which may rightly ask for the same call) does.
 */
export function createRepeatTracker(limit: number, history: ModelMessage[] = []): RepeatTracker {
  const lastByName = new Map<string, { key: string, count: number }>()

  function record(call: ToolCall): number {
    const key = normaliseArguments(call.function.arguments)
    const previous = lastByName.get(call.function.name)
    const count = previous && previous.key === key ? previous.count + 1 : 1
    lastByName.set(call.function.name, { key, count })
    return count
  }

  const lastUser = history.map(message => message.role).lastIndexOf('user')
  for (const message of history.slice(lastUser + 1)) {
    if (message.role === 'assistant') message.tool_calls?.forEach(record)
  }

  return { isRepeat: call => record(call) >= limit }
}

/** Same JSON, same key: `{"b":1,"a":2}` and `{ "a": 2, "b": 1 }` are one call. Unparsable text is compared as is. */
export function normaliseArguments(text: string): string {
  // A hostile model may send arguments that are not text at all: compare those by their type, never throw.
  if (typeof text !== 'string') return `(${typeof text})`
  const parsed = parseToolArguments(text)
  return parsed.ok ? stableStringify(parsed.value) : text.trim()
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.keys(value).sort().map(key => `${JSON.stringify(key)}:${stableStringify((value as Record<string, unknown>)[key])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
