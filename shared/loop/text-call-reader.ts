import type { ToolCall, ToolDefinition } from '../types/chat'
import { createTextToolCallStream } from '../tools/text-tool-calls/index'

/** What the text parser reports for one call; `arguments` is JSON text, but an object is accepted too. */
interface ParsedTextCall { name: string, arguments?: unknown }

export interface TextCallReader {
  /** Feeds a text delta; returns the visible text and the calls completed by it. */
  push: (delta: string) => { text: string, calls: ToolCall[] }
  /** End of the stream: returns the held-back text and any last call. */
  flush: () => { text: string, calls: ToolCall[] }
}

/**
 * Wraps the streaming text tool-call parser (local models that write calls as text) and gives each call a
 * ToolCall shape with a made-up id, so text calls flow through the same executor and history as native ones.
 */
export function createTextCallReader(tools: ToolDefinition[]): TextCallReader {
  // The definitions let the parser keep XML parameter values declared as strings (`"007"`) as written.
  const parser = createTextToolCallStream({ toolNames: tools.map(tool => tool.function.name), tools })
  const idPrefix = `call_${Math.random().toString(36).slice(2, 10)}_text`
  let count = 0

  function toToolCalls(calls: ParsedTextCall[]): ToolCall[] {
    return calls.map(call => ({
      id: `${idPrefix}_${count++}`,
      type: 'function' as const,
      function: { name: call.name, arguments: argumentsText(call.arguments) },
    }))
  }

  return {
    push(delta) {
      const out = parser.push(delta)
      return { text: out.text, calls: toToolCalls(out.calls as ParsedTextCall[]) }
    },
    flush() {
      const out = parser.flush()
      return { text: out.text, calls: toToolCalls(out.calls as ParsedTextCall[]) }
    },
  }
}

function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined || value === null) return '{}'
  try {
    return JSON.stringify(value)
  }
  catch {
    return '{}'
  }
}
