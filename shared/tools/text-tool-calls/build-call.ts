import type { BlockResult, ParseContext, ParsedTextToolCall } from './text-tool-call-types'
import { safeJsonParse, sanitizeValue } from './safe-json'
import { isRecord } from '../../types/is-record'

/** The offered tool a model-written name refers to, or undefined. Quoted names (`"get_time"`) are unquoted. */
export function resolveToolName(raw: string, context: ParseContext): string | undefined {
  if (context.toolNames.has(raw)) return raw
  const trimmed = raw.trim()
  if (context.toolNames.has(trimmed)) return trimmed
  const unquoted = trimmed.replace(/^(["'])(.*)\1$/s, '$2')
  return context.toolNames.has(unquoted) ? unquoted : undefined
}

/** True when `fragment` (a name still being streamed) could still become an offered tool name. */
export function couldBeToolName(fragment: string, context: ParseContext): boolean {
  const unquoted = fragment.trimStart().replace(/^["']/, '')
  for (const name of context.toolNames) {
    if (name.startsWith(unquoted) || name.startsWith(fragment)) return true
  }
  return false
}

/**
 * The longest offered tool name written at `start`: `match` with its end, `partial` when the text ends
 * while still spelling one (streaming), or `none`.
 */
export function matchToolNameAt(text: string, start: number, context: ParseContext):
  { status: 'match', name: string, end: number } | { status: 'partial' } | { status: 'none' } {
  let best: string | undefined
  let partial = false
  const rest = text.slice(start)
  for (const name of context.toolNames) {
    if (!name) continue
    if (rest.startsWith(name)) {
      if (!best || name.length > best.length) best = name
    }
    else if (name.startsWith(rest)) partial = true
  }
  if (partial && !context.final && (!best || rest.length <= best.length)) return { status: 'partial' }
  return best ? { status: 'match', name: best, end: start + best.length } : { status: 'none' }
}

/** A call with sanitised object arguments, encoded as JSON text. */
export function makeCall(name: string, args: unknown): ParsedTextToolCall {
  return { name, arguments: JSON.stringify(sanitizeValue(args)) }
}

export interface CallObjectOptions {
  /** Accept `{"name": "x"}` without arguments (as `{}`). */
  allowMissingArguments: boolean
  /** Accept `"arguments": "..."` strings (decoded once when they hold an object). */
  allowStringArguments: boolean
}

export type CallObjectVerdict =
  | { kind: 'call', call: ParsedTextToolCall }
  | { kind: 'unknown-tool' }
  | { kind: 'not-a-call' }

/** Reads `{"name", "arguments" | "parameters"}` (the OpenAI/Hermes/Llama/Mistral JSON shape). */
export function callFromObject(value: unknown, context: ParseContext, options: CallObjectOptions): CallObjectVerdict {
  if (!isRecord(value)) return { kind: 'not-a-call' }
  const nested = isRecord(value.function) ? value.function : undefined
  const source = typeof value.name === 'string' ? value : nested
  if (!source || typeof source.name !== 'string') return { kind: 'not-a-call' }
  const rawArguments = 'arguments' in source ? source.arguments : source.parameters
  let args: unknown
  if (rawArguments === undefined) {
    if (!options.allowMissingArguments) return { kind: 'not-a-call' }
    args = {}
  }
  else if (isRecord(rawArguments)) args = rawArguments
  else if (typeof rawArguments === 'string' && options.allowStringArguments) {
    const decoded = safeJsonParse(rawArguments)
    args = decoded.ok && isRecord(decoded.value) ? decoded.value : rawArguments
  }
  else return { kind: 'not-a-call' }
  const name = resolveToolName(source.name, context)
  if (!name) return { kind: 'unknown-tool' }
  return { kind: 'call', call: makeCall(name, args) }
}

/** How an untyped XML parameter value is decoded when no schema says otherwise. */
export type ValueMode = 'non-string-json' | 'any-json'

/**
 * Decodes one XML-style parameter value. A declared `string` type keeps the text; otherwise numbers,
 * booleans, null, objects and arrays are JSON-decoded (and, in `any-json` mode, quoted strings too).
 */
export function coerceParameter(raw: string, toolName: string, key: string, context: ParseContext, mode: ValueMode): unknown {
  const properties = context.schemas.get(toolName)?.properties as Record<string, { type?: unknown }> | undefined
  const declared = properties?.[key]?.type
  const types = Array.isArray(declared) ? declared : declared === undefined ? [] : [declared]
  if (types.length > 0 && types.every(type => type === 'string')) return raw
  const decoded = safeJsonParse(raw.trim())
  if (!decoded.ok) return raw
  const value = decoded.value
  if (typeof value === 'number' && !Number.isFinite(value)) return raw
  if (typeof value === 'string' && mode === 'non-string-json') return raw
  return value
}

export function needMoreOrText(context: ParseContext, end?: number): BlockResult {
  return context.final ? { status: 'text', end } : { status: 'need-more' }
}

/** {@link needMoreOrText} for a parser that got here through the scanner's resumed scans only. */
export function resumableNeedMoreOrText(context: ParseContext, end?: number): BlockResult {
  return context.final ? { status: 'text', end } : { status: 'need-more', resumable: true }
}

export function skipWhitespace(text: string, index: number): number {
  while (index < text.length && /\s/.test(text[index]!)) index++
  return index
}

/** A block's verdict from the calls found in it: none means the block stays text. */
export function callsOrText(calls: ParsedTextToolCall[], end: number): BlockResult {
  return calls.length > 0 ? { status: 'calls', calls, end } : { status: 'text' }
}
