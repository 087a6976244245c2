import type { BlockResult, ParseContext, ParsedTextToolCall } from './text-tool-call-types'
import { coerceParameter, couldBeToolName, makeCall, needMoreOrText, resolveToolName, resumableNeedMoreOrText } from './build-call'
import { isForbiddenKey } from '../../security/forbidden-keys'

const FUNCTION_OPEN = '<function='
const FUNCTION_CLOSE = '</function>'

/**
 * Qwen3-Coder / Nemotron `<function=name><parameter=key>value</parameter></function>` at `start`.
 * Values lose one leading and one trailing newline and are JSON-decoded unless they are plain strings.
 * A block cut off at end of stream is read up to the end.
 */
export function parseQwenFunction(text: string, start: number, context: ParseContext, stop = text.length): BlockResult {
  const nameStart = start + FUNCTION_OPEN.length
  const nameEnd = context.scan.indexOf(text, '>', nameStart)
  const nameSoFar = text.slice(nameStart, nameEnd === -1 ? stop : nameEnd)
  if (/[\n<]/.test(nameSoFar)) return { status: 'text' }
  if (nameEnd === -1 || nameEnd >= stop) {
    if (!couldBeToolName(nameSoFar, context)) return { status: 'text' }
    return needMoreOrText(context)
  }
  const name = resolveToolName(nameSoFar, context)
  if (!name) return { status: 'text' }
  const close = context.scan.indexOf(text, FUNCTION_CLOSE, nameEnd)
  if ((close === -1 || close > stop) && !context.final && stop === text.length) return { status: 'need-more', resumable: true }
  const bodyEnd = close === -1 || close > stop ? stop : close
  const body = text.slice(nameEnd + 1, bodyEnd)
  const args: Record<string, unknown> = {}
  // A name stops at `<` too: else each `<parameter=` without its `>` rescans to the end (quadratic: 100 KB of
  // them took 4 s).
  const parameter = /<parameter=([^>\n<]*)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g
  for (const match of body.matchAll(parameter)) {
    const key = match[1]!
    if (isForbiddenKey(key)) continue
    const raw = match[2]!.replace(/^\n/, '').replace(/\n$/, '')
    args[key] = coerceParameter(raw, name, key, context, 'non-string-json')
  }
  const end = close === -1 || close > stop ? bodyEnd : close + FUNCTION_CLOSE.length
  return { status: 'calls', calls: [makeCall(name, args)], end }
}

/** `<arg_key>`-style tag names: GLM 4.5+/4.7 and LongCat spell them differently. */
export interface ArgumentTags { key: string, value: string }
export const GLM_TAGS: ArgumentTags = { key: 'arg_key', value: 'arg_value' }
export const LONGCAT_TAGS: ArgumentTags = { key: 'longcat_arg_key', value: 'longcat_arg_value' }

/**
 * The body of a GLM call (`name<arg_key>k</arg_key><arg_value>v</arg_value>...`, wrapper already removed).
 * Tolerates a missing `<arg_value>` or `</arg_value>` as GLM models sometimes emit; later duplicates win.
 */
export function parseArgumentKeyBody(body: string, context: ParseContext, tags: ArgumentTags = GLM_TAGS): ParsedTextToolCall | undefined {
  const keyOpen = `<${tags.key}>`
  const keyClose = `</${tags.key}>`
  const valueOpen = `<${tags.value}>`
  const valueClose = `</${tags.value}>`
  const firstKey = body.indexOf(keyOpen)
  const name = resolveToolName((firstKey === -1 ? body : body.slice(0, firstKey)).trim(), context)
  if (!name) return undefined
  const args: Record<string, unknown> = {}
  let index = firstKey
  while (index !== -1) {
    const keyEnd = body.indexOf(keyClose, index)
    if (keyEnd === -1) return undefined
    const key = body.slice(index + keyOpen.length, keyEnd).trim()
    let valueStart = keyEnd + keyClose.length
    const opened = body.indexOf(valueOpen, valueStart)
    const nextKey = body.indexOf(keyOpen, valueStart)
    if (opened !== -1 && (nextKey === -1 || opened < nextKey) && body.slice(valueStart, opened).trim() === '') valueStart = opened + valueOpen.length
    const candidates = [body.indexOf(valueClose, valueStart), body.indexOf(keyOpen, valueStart)].filter(position => position !== -1)
    const valueEnd = candidates.length > 0 ? Math.min(...candidates) : body.length
    const raw = body.slice(valueStart, valueEnd).replace(/^\n+|\n+$/g, '')
    if (!isForbiddenKey(key)) args[key] = coerceParameter(raw, name, key, context, 'any-json')
    index = body.indexOf(keyOpen, valueEnd)
  }
  return makeCall(name, args)
}

const INVOKE_OPEN = '<invoke name='
const INVOKE_CLOSE = '</invoke>'

/** MiniMax-M2 `<invoke name="f"><parameter name="k">v</parameter></invoke>`, optionally inside `<minimax:tool_call>`. */
export function parseMinimaxInvokes(text: string, start: number, context: ParseContext): BlockResult {
  const wrapperOpen = '<minimax:tool_call>'
  const wrapperClose = '</minimax:tool_call>'
  const wrapped = text.startsWith(wrapperOpen, start)
  const close = context.scan.indexOf(text, wrapped ? wrapperClose : INVOKE_CLOSE, start)
  if (close === -1) return resumableNeedMoreOrText(context)
  const end = close + (wrapped ? wrapperClose : INVOKE_CLOSE).length
  const block = text.slice(start, end)
  const calls: ParsedTextToolCall[] = []
  for (const invoke of block.matchAll(/<invoke name=["']?([^"'><]*)["']?>([\s\S]*?)<\/invoke>/g)) {
    const name = resolveToolName(invoke[1]!, context)
    if (!name) continue
    const args: Record<string, unknown> = {}
    for (const parameter of invoke[2]!.matchAll(/<parameter name=["']?([^"'><]*)["']?>([\s\S]*?)<\/parameter>/g)) {
      if (!isForbiddenKey(parameter[1]!)) args[parameter[1]!] = coerceParameter(parameter[2]!.trim(), name, parameter[1]!, context, 'non-string-json')
    }
    calls.push(makeCall(name, args))
  }
  return calls.length > 0 ? { status: 'calls', calls, end } : { status: 'text' }
}

export { FUNCTION_OPEN, INVOKE_OPEN }
