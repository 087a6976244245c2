import { describeValue } from '../errors/describe-value'
import { parseJson } from '../security/parse-json'
import { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH } from './tool-limits'

export type ParseToolArgumentsResult =
  | { ok: true, value: Record<string, unknown> }
  | { ok: false, error: string }

/** V8 quotes the text around a syntax error; a short quote is enough for the model to find its mistake. */
const MAX_SYNTAX_ERROR_CHARS = 200

/**
 * Parses the arguments text a model wrote. Empty or blank text means `{}` (models send `""` for tools
 * without parameters). Keys that could reach an object's prototype are dropped at every depth. Anything but a
 * string (a text-call parser may hand over an object, a number, null or undefined), text over
 * MAX_ARGUMENT_CHARS and nesting over MAX_ARGUMENT_DEPTH are refused with a reason, without parsing.
 */
export function parseToolArguments(text: unknown): ParseToolArgumentsResult {
  if (typeof text !== 'string') return { ok: false, error: `arguments must be JSON text, got ${kindOf(text)}` }
  if (text.length > MAX_ARGUMENT_CHARS) {
    return { ok: false, error: `arguments are too long: ${text.length} characters, at most ${MAX_ARGUMENT_CHARS} are accepted` }
  }
  if (!text.trim()) return { ok: true, value: {} }
  if (nestsDeeperThan(text, MAX_ARGUMENT_DEPTH)) {
    return { ok: false, error: `arguments are nested too deeply: at most ${MAX_ARGUMENT_DEPTH} levels of objects and arrays are accepted` }
  }
  let value: unknown
  try {
    // `__proto__`, `constructor` and `prototype` are dropped at every depth
    value = parseJson(text)
  }
  catch (error) {
    return { ok: false, error: `arguments are not valid JSON: ${describeValue(error, MAX_SYNTAX_ERROR_CHARS)}` }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `arguments must be a JSON object, got ${kindOf(value, true)}` }
  }
  return { ok: true, value: value as Record<string, unknown> }
}

/** 'null', 'undefined', 'an array', 'an object', 'a number'... Reads only `typeof` unless asked about arrays (a revoked Proxy throws on Array.isArray). */
function kindOf(value: unknown, arrays = false): string {
  if (value === null || value === undefined) return String(value)
  if (arrays && Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

const OPEN_BRACE = 0x7B
const OPEN_BRACKET = 0x5B
const CLOSE_BRACE = 0x7D
const CLOSE_BRACKET = 0x5D
const QUOTE = 0x22
const BACKSLASH = 0x5C

/**
 * True when objects and arrays in `text` nest deeper than `maxDepth`, found in one pass over the characters
 * (brackets inside strings do not count). Checked before parsing: the parser's key filter and the validator recurse once per level.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
    }
    else if (code === QUOTE) {
      inString = true
    }
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return true
    }
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--
    }
  }
  return false
}
