/** Turning a handler's return value into the text the model reads. */
import { describeValue } from '../errors/describe-value'

export type SerialiseToolOutputResult = { ok: true, text: string } | { ok: false, reason: string }

/**
 * Strings go to the model as they are; plain JSON values are stringified. `undefined`, functions, symbols,
 * bigints, circular values and values whose `toJSON` or getters throw are refused with a reason (see ToolHandler).
 * Never throws.
 */
export function serialiseToolOutput(value: unknown): SerialiseToolOutputResult {
  if (typeof value === 'string') return { ok: true, text: value }
  if (value === undefined) return { ok: false, reason: 'returned undefined; return a string or a JSON value' }
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
    return { ok: false, reason: `returned a ${typeof value}; return a string or a JSON value` }
  }
  try {
    const text: unknown = JSON.stringify(value)
    // A toJSON may return a function or a symbol; a replacer-free stringify of those is undefined.
    if (typeof text !== 'string') return { ok: false, reason: 'returned a value that has no JSON form' }
    return { ok: true, text }
  }
  catch (error) {
    return { ok: false, reason: `returned a value that cannot be serialised to JSON (${describeValue(error, 200).split('\n')[0]})` }
  }
}

/**
 * Cuts a result to `maxChars` for the model and says so, so it knows the data is partial. With `callId`, the note
 * also says how to read the rest with `read_tool_result`.
 * The cut never splits a surrogate pair.
 */
export function truncateToolOutput(text: string, maxChars: number, callId?: string): { content: string, truncated: boolean } {
  if (text.length <= maxChars) return { content: text, truncated: false }
  let end = Math.max(0, maxChars)
  const lastCode = text.charCodeAt(end - 1)
  if (lastCode >= 0xD800 && lastCode <= 0xDBFF) end--
  return {
    // The pointer to read_tool_result lets the model fetch the rest instead of guessing; only when the call has an id.
    content: `${text.slice(0, end)}\n\n[Result truncated: showing the first ${end} of ${text.length} characters.]${callId ? `\n[Call read_tool_result with call_id "${callId}" and offset ${end} to read the rest.]` : ''}`,
    truncated: true,
  }
}
