import type { BlockResult, ParseContext, ParsedTextToolCall } from './text-tool-call-types'
import { callFromObject, needMoreOrText, resumableNeedMoreOrText, type CallObjectOptions } from './build-call'
import { safeJsonParse } from './safe-json'
import { PLAIN_SCANNER, type BufferScanner } from './buffer-scanner'

/** Keys a bare JSON call may open with; anything else in prose is plain JSON, not a call. */
const CALL_KEYS = ['name', 'arguments', 'parameters']

/**
 * Streaming guard for bare JSON: `{` must be followed by a quoted call key. Returns `yes`, `no`, or `maybe`
 * when the text ends before the first key is complete.
 */
export function opensWithCallKey(text: string, start: number, scan: BufferScanner = PLAIN_SCANNER): 'yes' | 'no' | 'maybe' {
  let index = scan.skipWhitespace(text, start + 1)
  if (index >= text.length) return 'maybe'
  if (text[index] !== '"') return 'no'
  index++
  const close = text.indexOf('"', index)
  const key = close === -1 ? text.slice(index) : text.slice(index, close)
  if (close === -1) return CALL_KEYS.some(name => name.startsWith(key)) ? 'maybe' : 'no'
  return CALL_KEYS.includes(key) ? 'yes' : 'no'
}

/**
 * A JSON array of call objects opening at `start` (`[`). Every element must be call-shaped; unknown tools are
 * dropped and an array naming only unknown tools stays text. An array cut off at end of stream keeps its
 * complete elements.
 */
export function parseJsonCallArray(text: string, start: number, context: ParseContext, options: CallObjectOptions): BlockResult {
  const calls: ParsedTextToolCall[] = []
  const { scan } = context
  let index = start + 1
  let elements = 0
  for (;;) {
    index = scan.skipWhitespace(text, index)
    if (index >= text.length) {
      if (!context.final) return { status: 'need-more', resumable: elements === 0 }
      return elements > 0 && calls.length > 0 ? { status: 'calls', calls, end: index } : { status: 'text' }
    }
    const char = text[index]
    if (char === ']' && elements > 0) {
      const end = index + 1
      return calls.length > 0 ? { status: 'calls', calls, end } : { status: 'text', end, rejectedJson: true }
    }
    if (elements > 0) {
      if (char !== ',') return rejectJsonValue(text, start, context)
      index = scan.skipWhitespace(text, index + 1)
      if (index >= text.length) return needMoreOrText(context)
    }
    if (text[index] !== '{') return rejectJsonValue(text, start, context)
    const element = scan.scanBalanced(text, index)
    if (!element.complete) return elements === 0 ? resumableNeedMoreOrText(context) : needMoreOrText(context)
    const parsed = safeJsonParse(text.slice(index, element.end))
    if (!parsed.ok) return rejectJsonValue(text, start, context)
    const verdict = callFromObject(parsed.value, context, options)
    if (verdict.kind === 'not-a-call') return rejectJsonValue(text, start, context)
    if (verdict.kind === 'call') calls.push(verdict.call)
    elements++
    index = element.end
  }
}

/**
 * The most characters a JSON value that is not a call may span and still be skipped whole as text (so that the
 * objects nested in it are not mistaken for calls). While it streams, the text from its opening bracket is held
 * back until it closes or grows past this: whether it closes decides how the text inside is read, and the answer
 * must not depend on how the text was cut into deltas. A longer (or unclosed) value gives up only its bracket.
 */
export const REJECTED_VALUE_MAX_CHARS = 1_024

/** Rejects the JSON value at `start` as text: whole when it closes within REJECTED_VALUE_MAX_CHARS, else its bracket. */
export function rejectJsonValue(text: string, start: number, context: ParseContext): BlockResult {
  const scan = context.scan.scanBalanced(text, start)
  if (scan.complete) return scan.end - start <= REJECTED_VALUE_MAX_CHARS ? { status: 'text', end: scan.end, rejectedJson: true } : { status: 'text' }
  return text.length - start <= REJECTED_VALUE_MAX_CHARS ? resumableNeedMoreOrText(context) : { status: 'text' }
}

/**
 * One or more call objects opening at `start` (`{`), separated by `;`, `,` or whitespace (Llama 3 JSON).
 * The first object must be a call to an offered tool; the sequence stops at the first thing that is not.
 */
export function parseJsonCallSequence(text: string, start: number, context: ParseContext, options: CallObjectOptions): BlockResult {
  const calls: ParsedTextToolCall[] = []
  let index = start
  let end = start
  for (;;) {
    const scan = context.scan.scanBalanced(text, index)
    if (!scan.complete) {
      if (calls.length === 0) return resumableNeedMoreOrText(context)
      if (!context.final && opensWithCallKey(text, index, context.scan) !== 'no') return { status: 'need-more' }
      break
    }
    const parsed = safeJsonParse(text.slice(index, scan.end))
    const verdict = parsed.ok ? callFromObject(parsed.value, context, options) : { kind: 'not-a-call' as const }
    if (verdict.kind !== 'call') {
      if (calls.length === 0) return parsed.ok ? { status: 'text', end: scan.end, rejectedJson: true } : { status: 'text' }
      break
    }
    calls.push(verdict.call)
    end = scan.end
    let next = end
    while (next < text.length && /[\s;,]/.test(text[next]!)) next++
    if (next >= text.length) {
      if (!context.final) return { status: 'need-more' }
      break
    }
    if (text[next] !== '{') break
    index = next
  }
  return { status: 'calls', calls, end }
}

/** Calls written as JSON at `start`: an array of calls or a sequence of call objects. */
export function parseJsonCalls(text: string, start: number, context: ParseContext, options: CallObjectOptions): BlockResult {
  if (text[start] === '[') return parseJsonCallArray(text, start, context, options)
  if (text[start] === '{') return parseJsonCallSequence(text, start, context, options)
  return { status: 'text' }
}
