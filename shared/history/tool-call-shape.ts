import type { ToolCall } from '../types/chat'

/**
 * What OpenAI (and the strict servers modelled on it: vLLM, llama.cpp, Mistral's API) accept as a function name.
 * A call named otherwise, or not named at all, makes the whole request fail with a 400.
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/

/** True when `name` is a function name a strict server accepts. */
export function isValidToolName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME_PATTERN.test(name)
}

/**
 * True when `text` is JSON text of an object, the only `arguments` a strict server replays. A cut stream leaves a
 * prefix such as `{"city":"Par`; a guarded parse is the only reliable test (a prefix can look balanced).
 */
export function isJsonObjectText(text: unknown): text is string {
  if (typeof text !== 'string') return false
  let value: unknown
  try {
    value = JSON.parse(text)
  }
  catch {
    return false
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * Models send `""` (or whitespace) for a tool without parameters and the executor runs it as `{}`; strict servers
 * parse the replayed text, so the history says `{}` too. Anything else is returned unchanged.
 */
export function normalizeBlankArguments(text: unknown): unknown {
  return typeof text === 'string' && text.trim() === '' ? '{}' : text
}

/** True when a call can be replayed as it is: a valid name and JSON object arguments (blank counts as `{}`). */
export function isReplayableToolCall(call: ToolCall): boolean {
  const fn = call?.function
  return isValidToolName(fn?.name) && isJsonObjectText(normalizeBlankArguments(fn?.arguments))
}

/**
 * True when the model stopped writing a call before it was whole: no name yet, or arguments that are not a JSON
 * object (blank counts as `{}`). Such a call never runs; the card says "cut off" and the model's history holds it
 * only as repairToolHistory rewrites it.
 */
export function isCutToolCall(name: unknown, args: unknown): boolean {
  return typeof name !== 'string' || name.trim() === '' || !isJsonObjectText(normalizeBlankArguments(args))
}
