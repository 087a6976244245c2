import type { TextToolCallOptions, TextToolCallResult } from './text-tool-call-types'
import { createTextToolCallStream } from './text-tool-call-stream'

/**
 * Finds tool calls that a model wrote as text (local models on Ollama, LM Studio, llama.cpp) and returns them
 * with the remaining prose. Only names in `options.toolNames` count; anything that is not a well-formed call
 * stays in `content`. Same result as feeding the text to {@link createTextToolCallStream} in one piece.
 */
export function parseTextToolCalls(text: string, options: TextToolCallOptions): TextToolCallResult {
  const stream = createTextToolCallStream(options)
  const first = stream.push(text)
  const last = stream.flush()
  const calls = [...first.calls, ...last.calls]
  const content = first.text + last.text
  return { content: calls.length > 0 ? content.trim() : content, calls }
}
