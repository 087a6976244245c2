import type { JsonSchemaObject } from '../../types/chat'
import type { BlockResult, ParseContext, TextToolCallDelta, TextToolCallFormat, TextToolCallOptions } from './text-tool-call-types'
import { START_FORMATS, TEXT_TOOL_CALL_FORMATS } from './text-tool-call-formats'

const FENCE = '```'

interface OpenerEntry { opener: string, format: TextToolCallFormat }

const OPENERS: OpenerEntry[] = TEXT_TOOL_CALL_FORMATS
  .flatMap(format => format.openers.map(opener => ({ opener, format })))
  .sort((left, right) => right.opener.length - left.opener.length)

/** Incremental text tool-call parser; see {@link createTextToolCallStream}. */
export interface TextToolCallStream {
  /** Feeds the next text delta; returns the text that is certainly visible and any calls completed by it. */
  push: (delta: string) => TextToolCallDelta
  /** Ends the stream: held-back text that turned out not to be a call is returned as text. */
  flush: () => TextToolCallDelta
}

/**
 * Splits streamed model output into visible text and tool calls written as text (Hermes `<tool_call>`,
 * Qwen3-Coder `<function=…>`, Mistral `[TOOL_CALLS]`, Llama `<|python_tag|>`, bare JSON, pythonic lists, …).
 * Text is released as soon as it cannot be the start of markup; only a possible opener (`<tool_call`, `[`,
 * `{`, a code fence…) and an open block are held back. Markup of a recognised call is never emitted as text.
 */
export function createTextToolCallStream(options: TextToolCallOptions): TextToolCallStream {
  const toolNames = new Set(options.toolNames)
  const schemas = new Map<string, JsonSchemaObject>(
    (options.tools ?? []).map(tool => [tool.function.name, tool.function.parameters]),
  )
  let buffer = ''
  /** Nothing but whitespace has been emitted: wrapper-less call bodies are only accepted here. */
  let atStart = true
  /** Inside a code fence that is not a call: no markup is recognised until it closes. */
  let inFence = false
  let afterRejectedJson = false

  function emit(output: TextToolCallDelta, text: string): void {
    if (!text) return
    output.text += text
    if (/\S/.test(text)) atStart = false
    if (/[^\s;,]/.test(text)) afterRejectedJson = false
  }

  function activeOpeners(): OpenerEntry[] {
    return inFence ? [] : OPENERS
  }

  /** Earliest full opener, or the start of a tail that could still grow into one. */
  function findCandidate(final: boolean): number {
    let best = inFence ? buffer.indexOf(FENCE) : -1
    for (const { opener } of activeOpeners()) {
      const index = buffer.indexOf(opener)
      if (index !== -1 && (best === -1 || index < best)) best = index
    }
    if (final) return best
    const openers = inFence ? [FENCE] : activeOpeners().map(entry => entry.opener)
    const longest = Math.max(...openers.map(opener => opener.length))
    for (let length = Math.min(longest - 1, buffer.length); length >= 1; length--) {
      const tail = buffer.slice(buffer.length - length)
      if (openers.some(opener => opener.length > length && opener.startsWith(tail))) {
        const start = buffer.length - length
        return best === -1 ? start : Math.min(best, start)
      }
    }
    return best
  }

  function isProperPrefixOfOpener(text: string): boolean {
    const openers = inFence ? [FENCE] : activeOpeners().map(entry => entry.opener)
    return openers.some(opener => opener.length > text.length && opener.startsWith(text))
  }

  function context(final: boolean): ParseContext {
    return { final, toolNames, schemas, afterRejectedJson }
  }

  function process(final: boolean): TextToolCallDelta {
    const output: TextToolCallDelta = { text: '', calls: [] }
    while (buffer.length > 0) {
      if (atStart && !inFence) {
        const first = buffer.search(/\S/)
        if (first === -1) break
        emit(output, buffer.slice(0, first))
        buffer = buffer.slice(first)
        let verdict: BlockResult = { status: 'text' }
        for (const format of START_FORMATS) {
          verdict = format.parse(buffer, 0, context(final))
          if (verdict.status !== 'text') break
        }
        if (verdict.status === 'need-more') break
        atStart = false
        if (verdict.status === 'calls') {
          output.calls.push(...verdict.calls)
          buffer = buffer.slice(verdict.end)
          continue
        }
      }
      const candidate = findCandidate(final)
      if (candidate === -1) {
        emit(output, buffer)
        buffer = ''
        break
      }
      emit(output, buffer.slice(0, candidate))
      buffer = buffer.slice(candidate)
      if (!final && isProperPrefixOfOpener(buffer)) break
      if (inFence) {
        if (!buffer.startsWith(FENCE)) break
        emit(output, FENCE)
        buffer = buffer.slice(FENCE.length)
        inFence = false
        continue
      }
      const entry = OPENERS.find(item => buffer.startsWith(item.opener))
      if (!entry) break
      const verdict = entry.format.parse(buffer, 0, context(final))
      if (verdict.status === 'need-more') {
        if (final) throw new Error(`text tool-call parser "${entry.format.name}" asked for more text at end of stream`)
        break
      }
      if (verdict.status === 'calls') {
        output.calls.push(...verdict.calls)
        buffer = buffer.slice(verdict.end)
        afterRejectedJson = false
        continue
      }
      const end = Math.max(verdict.end ?? entry.opener.length, 1)
      emit(output, buffer.slice(0, end))
      buffer = buffer.slice(end)
      if (verdict.rejectedJson) afterRejectedJson = true
      if (verdict.opensFence) inFence = true
    }
    if (final && buffer.length > 0) {
      emit(output, buffer)
      buffer = ''
    }
    return output
  }

  return {
    push(delta) {
      buffer += delta
      return process(false)
    },
    flush() {
      return process(true)
    },
  }
}
