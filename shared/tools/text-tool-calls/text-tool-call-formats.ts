import type { BlockResult, ParseContext, ParsedTextToolCall, StartFormat, TextToolCallFormat } from './text-tool-call-types'
import { couldBeToolName, makeCall, matchToolNameAt, needMoreOrText, resolveToolName, resumableNeedMoreOrText, skipWhitespace } from './build-call'
import { opensWithCallKey, parseJsonCallArray, parseJsonCalls, parseJsonCallSequence, rejectJsonValue } from './json-call-blocks'
import { GLM_TAGS, LONGCAT_TAGS, parseArgumentKeyBody, parseMinimaxInvokes, parseQwenFunction } from './xml-call-blocks'
import { parsePythonCalls } from './python-calls'
import { parseGemmaCall } from './gemma-calls'
import { safeJsonParse } from './safe-json'
import { isRecord } from '../../types/is-record'

const TAGGED = { allowMissingArguments: true, allowStringArguments: true }
const BARE = { allowMissingArguments: false, allowStringArguments: false }

/** The same context, but final: used inside a block whose end is already known. */
function bounded(context: ParseContext): ParseContext {
  return { ...context, final: true }
}

/**
 * Consumes an optional closing marker (after whitespace) that some models add after their calls. While
 * streaming, a block that ends where such a marker may still follow waits for the next delta.
 */
function withOptionalCloser(text: string, result: BlockResult, markers: string[], context: ParseContext): BlockResult {
  if (result.status !== 'calls') return result
  const next = skipWhitespace(text, result.end)
  const marker = markers.find(item => text.startsWith(item, next))
  if (marker) return { ...result, end: next + marker.length }
  const rest = text.slice(next)
  if (!context.final && markers.some(item => item.startsWith(rest))) return { status: 'need-more' }
  return result
}

/**
 * A block `open … close`: `close` (or, at end of stream, the end) bounds the body handed to `readBody`.
 * `readBody` gets the text cut at the body's end and a final context.
 */
function wrapped(open: string, close: string, readBody: (text: string, start: number, context: ParseContext) => BlockResult,
  earlyCheck?: (text: string, bodyStart: number, context: ParseContext) => boolean): TextToolCallFormat['parse'] {
  return (text, start, context) => {
    const bodyStart = context.scan.skipWhitespace(text, start + open.length)
    const closeAt = context.scan.indexOf(text, close, bodyStart)
    if (closeAt === -1 && !context.final) {
      if (bodyStart < text.length && earlyCheck && !earlyCheck(text, bodyStart, context)) return { status: 'text' }
      return { status: 'need-more', resumable: !earlyCheck }
    }
    const stop = closeAt === -1 ? text.length : closeAt
    if (bodyStart >= stop) return { status: 'text' }
    const result = readBody(text.slice(0, stop), bodyStart, bounded(context))
    if (result.status !== 'calls') return { status: 'text' }
    return { status: 'calls', calls: result.calls, end: closeAt === -1 ? text.length : closeAt + close.length }
  }
}

/** `<tool_call>` bodies: Hermes/Qwen JSON, Granite 3.1 JSON arrays, Qwen3-Coder `<function=…>`, GLM `<arg_key>`. */
function parseToolCallTag(text: string, start: number, context: ParseContext): BlockResult {
  const open = '<tool_call>'
  const close = '</tool_call>'
  const bodyStart = context.scan.skipWhitespace(text, start + open.length)
  if (bodyStart >= text.length) return resumableNeedMoreOrText(context)
  const closeAt = context.scan.indexOf(text, close, bodyStart)
  const nextOpen = context.scan.indexOf(text, open, bodyStart)
  const blockEnd = nextOpen !== -1 && (closeAt === -1 || nextOpen < closeAt) ? nextOpen : closeAt
  const first = text[bodyStart]!
  const rest = text.slice(bodyStart)
  const isFunction = rest.startsWith('<function=')
  if (blockEnd === -1 && !context.final) {
    if (first === '{' || first === '[' || isFunction) return { status: 'need-more', resumable: true }
    if ('<function='.startsWith(rest)) return { status: 'need-more' }
    const name = /^[^\s<]*/.exec(rest)![0]
    return couldBeToolName(name, context) ? { status: 'need-more' } : { status: 'text' }
  }
  const stop = blockEnd === -1 ? text.length : blockEnd
  const end = blockEnd === -1 ? text.length : blockEnd === closeAt ? closeAt + close.length : blockEnd
  const body = text.slice(0, stop)
  let calls: ParsedTextToolCall[] = []
  if (first === '{' || first === '[') {
    const result = parseJsonCalls(body, bodyStart, bounded(context), TAGGED)
    if (result.status === 'calls') calls = result.calls
  }
  else if (isFunction) {
    const result = parseQwenFunction(body, bodyStart, bounded(context))
    if (result.status === 'calls') calls = result.calls
  }
  else if (blockEnd !== -1) {
    // A GLM body has no inner terminator: without </tool_call> it may have been cut off mid-value.
    const call = parseArgumentKeyBody(body.slice(bodyStart), context)
    if (call) calls = [call]
  }
  return calls.length > 0 ? { status: 'calls', calls, end } : { status: 'text' }
}

const MISTRAL_NAME = /[\w.-]+/y
const MISTRAL_CALL_ID = /\[CALL_ID\][\w-]*/y

/** A sticky pattern's match at `index` (no slice of the rest, no search past `index`). */
function matchAt(pattern: RegExp, text: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index
  return pattern.exec(text)
}

/** Mistral `[TOOL_CALLS]`: `[{…}]` arrays (before tokenizer v11) or `name{…}` / `name[ARGS]{…}` (v11+). */
function parseMistral(text: string, start: number, context: ParseContext): BlockResult {
  const index = context.scan.skipWhitespace(text, start + '[TOOL_CALLS]'.length)
  if (index >= text.length) return resumableNeedMoreOrText(context)
  if (text[index] === '[' || text[index] === '{') {
    return withOptionalCloser(text, parseJsonCalls(text, index, context, TAGGED), ['[/TOOL_CALLS]'], context)
  }
  const name = matchAt(MISTRAL_NAME, text, index)
  if (name) {
    let cursor = index + name[0].length
    const callId = matchAt(MISTRAL_CALL_ID, text, cursor)
    if (callId) cursor += callId[0].length
    if (text.startsWith('[ARGS]', cursor)) cursor += '[ARGS]'.length
    if (cursor >= text.length || '[ARGS]'.startsWith(text.slice(cursor)) || '[CALL_ID]'.startsWith(text.slice(cursor))) return needMoreOrText(context)
    if (text[cursor] === '{') return parseNameThenArguments(text, cursor, name[0], context)
  }
  const bracket = text.indexOf('[{', index)
  if (bracket === -1) return needMoreOrText(context)
  return parseJsonCallArray(text, bracket, context, TAGGED)
}

/** `name` already read; a JSON object of arguments opens at `braceAt`. */
function parseNameThenArguments(text: string, braceAt: number, rawName: string, context: ParseContext): BlockResult {
  if (braceAt >= text.length) return needMoreOrText(context)
  if (text[braceAt] !== '{') return { status: 'text' }
  const scan = context.scan.scanBalanced(text, braceAt)
  if (!scan.complete) return resumableNeedMoreOrText(context)
  const parsed = safeJsonParse(text.slice(braceAt, scan.end))
  const name = resolveToolName(rawName, context)
  if (!parsed.ok || !isRecord(parsed.value) || !name) return { status: 'text' }
  return { status: 'calls', calls: [makeCall(name, parsed.value)], end: scan.end }
}

const DEEPSEEK_CALLS_END = /<[｜|]tool[▁_]calls[▁_]end[｜|]>/g
const DEEPSEEK_CALL = /<[｜|]tool[▁_]call[▁_]begin[｜|]>([\s\S]*?)<[｜|]tool[▁_]call[▁_]end[｜|]>/g
const DEEPSEEK_SEPARATOR = /<[｜|]tool[▁_]sep[｜|]>/
const DEEPSEEK_END_OF_SENTENCE = ['<｜end▁of▁sentence｜>', '<|end▁of▁sentence|>']

/** DeepSeek V3 (`function<sep>name\n```json …```) and V3.1 (`name<sep>{…}`) token blocks. */
function parseDeepSeek(text: string, start: number, context: ParseContext): BlockResult {
  DEEPSEEK_CALLS_END.lastIndex = start
  const closing = DEEPSEEK_CALLS_END.exec(text)
  if (!closing && !context.final) return { status: 'need-more' }
  const regionEnd = closing ? closing.index : text.length
  const end = closing ? closing.index + closing[0].length : text.length
  const calls: ParsedTextToolCall[] = []
  for (const match of text.slice(start, regionEnd).matchAll(DEEPSEEK_CALL)) {
    const parts = match[1]!.split(DEEPSEEK_SEPARATOR)
    if (parts.length !== 2) continue
    const fenced = /^\s*([^\n`]+?)\s*\n?```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(parts[1]!)
    const rawName = fenced ? fenced[1]! : parts[0]!.trim()
    const parsed = safeJsonParse((fenced ? fenced[2]! : parts[1]!).trim())
    const name = resolveToolName(rawName, context)
    if (name && parsed.ok && isRecord(parsed.value)) calls.push(makeCall(name, parsed.value))
  }
  const result: BlockResult = calls.length > 0 ? { status: 'calls', calls, end } : { status: 'text' }
  return withOptionalCloser(text, result, DEEPSEEK_END_OF_SENTENCE, context)
}

/** Pythonic calls (`[f(a=1)]`) or JSON, as LFM2 writes inside its tool-call tokens. */
function readPythonicOrJson(text: string, start: number, context: ParseContext): BlockResult {
  if (text[start] === '[' && /[A-Za-z_]/.test(text[skipWhitespace(text, start + 1)] ?? '')) return parsePythonCalls(text, start, context, 'bracketed-list')
  if (/[A-Za-z_]/.test(text[start]!)) return parsePythonCalls(text, start, context, 'lines')
  return parseJsonCalls(text, start, context, TAGGED)
}

/** A Markdown code fence holding only call JSON (```json\n[{"name": …}]\n```); any other fence is text. */
function parseFence(text: string, start: number, context: ParseContext): BlockResult {
  const language = /^[\w-]*/.exec(text.slice(start + 3))![0]
  const lineEnd = start + 3 + language.length
  if (lineEnd >= text.length) return needMoreOrText(context)
  const notACall: BlockResult = { status: 'text', end: lineEnd, opensFence: true }
  if (text[lineEnd] !== '\n' || !['', 'json', 'tool_call', 'tool_calls', 'tool_code'].includes(language.toLowerCase())) return notACall
  const bodyStart = context.scan.skipWhitespace(text, lineEnd)
  if (bodyStart >= text.length) return resumableNeedMoreOrText(context, lineEnd)
  const first = text[bodyStart]
  if (first !== '{' && first !== '[') return notACall
  const probe = first === '{' ? bodyStart : context.scan.skipWhitespace(text, bodyStart + 1)
  if (probe >= text.length) return resumableNeedMoreOrText(context, lineEnd)
  if (text[probe] !== '{') return notACall
  const key = opensWithCallKey(text, probe, context.scan)
  if (key === 'no') return notACall
  if (key === 'maybe') return needMoreOrText(context, lineEnd)
  const result = parseJsonCalls(text, bodyStart, context, BARE)
  if (result.status === 'need-more') return result
  if (result.status !== 'calls') return notACall
  const after = skipWhitespace(text, result.end)
  if (text.startsWith('```', after)) return { ...result, end: after + 3 }
  if (after >= text.length) return context.final ? { ...result, end: after } : { status: 'need-more' }
  return notACall
}

/** A bare `{"name": …, "arguments": …}` object (or a `;`-separated run of them) anywhere in the text. */
function parseBareObject(text: string, start: number, context: ParseContext): BlockResult {
  if (context.afterRejectedJson) return rejectJsonValue(text, start, context)
  const key = opensWithCallKey(text, start, context.scan)
  if (key === 'maybe') return resumableNeedMoreOrText(context)
  if (key === 'no') return rejectJsonValue(text, start, context)
  return parseJsonCallSequence(text, start, context, BARE)
}

/** A bare `[{…}]` call array or a pythonic `[f(a=1), g()]` list anywhere in the text. */
function parseBareList(text: string, start: number, context: ParseContext): BlockResult {
  const index = context.scan.skipWhitespace(text, start + 1)
  if (index >= text.length) return resumableNeedMoreOrText(context)
  if (text[index] === '{') {
    if (context.afterRejectedJson) return rejectJsonValue(text, start, context)
    const key = opensWithCallKey(text, index, context.scan)
    if (key === 'maybe') return resumableNeedMoreOrText(context)
    if (key === 'no') return rejectJsonValue(text, start, context)
    return parseJsonCallArray(text, start, context, BARE)
  }
  const name = /^[A-Za-z_][\w.-]*/.exec(text.slice(index))
  if (!name) return { status: 'text', end: 1 }
  const after = index + name[0].length
  if (after >= text.length) return needMoreOrText(context)
  if (text[after] !== '(') return { status: 'text', end: 1 }
  return parsePythonCalls(text, start, context, 'bracketed-list')
}

/** Every syntax recognised anywhere in the output, keyed by the literal text that opens it. */
export const TEXT_TOOL_CALL_FORMATS: TextToolCallFormat[] = [
  { name: 'hermes-qwen-glm', openers: ['<tool_call>'], parse: parseToolCallTag },
  { name: 'qwen3-coder', openers: ['<function='], parse: (text, start, context) => parseQwenFunction(text, start, context) },
  {
    name: 'llama-python-tag',
    openers: ['<|python_tag|>'],
    parse: (text, start, context) => {
      const index = context.scan.skipWhitespace(text, start + '<|python_tag|>'.length)
      if (index >= text.length) return resumableNeedMoreOrText(context)
      const result = text[index] === '{' ? parseJsonCallSequence(text, index, context, BARE) : { status: 'text' as const }
      return withOptionalCloser(text, result, ['<|eom_id|>', '<|eot_id|>'], context)
    },
  },
  { name: 'mistral', openers: ['[TOOL_CALLS]'], parse: parseMistral },
  {
    name: 'granite',
    openers: ['<|tool_call|>'],
    parse: (text, start, context) => {
      const index = context.scan.skipWhitespace(text, start + '<|tool_call|>'.length)
      return index >= text.length ? resumableNeedMoreOrText(context) : parseJsonCalls(text, index, context, TAGGED)
    },
  },
  { name: 'phi4-mini', openers: ['functools['], parse: (text, start, context) => parseJsonCallArray(text, start + 'functools'.length, context, TAGGED) },
  { name: 'deepseek', openers: ['<｜tool▁calls▁begin｜>', '<|tool▁calls▁begin|>'], parse: parseDeepSeek },
  {
    // DeepSeek wraps echoed tool results in these tokens; they are never meant to be shown.
    name: 'deepseek-output-tokens',
    openers: ['outputs▁begin', 'outputs▁end', 'output▁begin', 'output▁end'].flatMap(token => [`<｜tool▁${token}｜>`, `<|tool▁${token}|>`]),
    parse: (text, start) => ({ status: 'calls', calls: [], end: text.indexOf('>', start) + 1 }),
  },
  { name: 'lfm2', openers: ['<|tool_call_start|>'], parse: wrapped('<|tool_call_start|>', '<|tool_call_end|>', readPythonicOrJson) },
  { name: 'olmo3', openers: ['<function_calls>'], parse: wrapped('<function_calls>', '</function_calls>', readPythonicOrJson) },
  {
    name: 'function-gemma',
    openers: ['<start_function_call>'],
    parse: wrapped('<start_function_call>', '<end_function_call>', (text, start, context) =>
      text.startsWith('call:', start) ? parseGemmaCall(text, start, context) : { status: 'text' }),
  },
  {
    name: 'gemma4',
    openers: ['<|tool_call>'],
    parse: wrapped('<|tool_call>', '<tool_call|>', (text, start, context) =>
      text.startsWith('call:', start) ? parseGemmaCall(text, start, context) : { status: 'text' }),
  },
  { name: 'minimax', openers: ['<minimax:tool_call>', '<invoke name='], parse: parseMinimaxInvokes },
  { name: 'code-fence', openers: ['```'], parse: parseFence },
  { name: 'bare-json-object', openers: ['{'], parse: parseBareObject },
  { name: 'bare-list', openers: ['['], parse: parseBareList },
]

/**
 * Inner call bodies some servers hand over without their wrapper tokens; recognised only at the very start
 * of the output and only when they begin with an offered tool's name (or `call:`).
 */
export const START_FORMATS: StartFormat[] = [
  {
    name: 'name-first-bodies',
    parse: (text, start, context) => {
      if (text.startsWith('call:', start) || (!context.final && 'call:'.startsWith(text.slice(start)))) {
        return text.startsWith('call:', start) ? parseGemmaCall(text, start, context) : { status: 'need-more' }
      }
      const name = matchToolNameAt(text, start, context)
      if (name.status === 'partial') return { status: 'need-more' }
      if (name.status === 'none') return { status: 'text', end: 0 }
      const index = skipWhitespace(text, name.end)
      const rest = text.slice(index)
      for (const tags of [GLM_TAGS, LONGCAT_TAGS]) {
        const open = `<${tags.key}>`
        if (rest.startsWith(open)) {
          if (!context.final) return { status: 'need-more' }
          const call = parseArgumentKeyBody(text.slice(start), context, tags)
          return call ? { status: 'calls', calls: [call], end: text.length } : { status: 'text', end: 0 }
        }
      }
      const afterName = text.slice(name.end)
      if (afterName.startsWith('[ARGS]')) return parseNameThenArguments(text, name.end + '[ARGS]'.length, name.name, context)
      if (!context.final && (rest === '' || ['<arg_key>', '<longcat_arg_key>'].some(open => open.startsWith(rest)) || '[ARGS]'.startsWith(afterName))) {
        return { status: 'need-more' }
      }
      return { status: 'text', end: 0 }
    },
  },
]
