import type { JsonSchemaObject } from '../../types/chat'
import type { BlockResult, ParseContext, TextToolCallDelta, TextToolCallFormat, TextToolCallOptions } from './text-tool-call-types'
import { START_FORMATS, TEXT_TOOL_CALL_FORMATS } from './text-tool-call-formats'
import { createBufferScanner } from './buffer-scanner'
import { createOpenerIndex } from './opener-index'

const FENCE = '```'

interface OpenerEntry { opener: string, format: TextToolCallFormat }

const OPENERS: OpenerEntry[] = TEXT_TOOL_CALL_FORMATS
  .flatMap(format => format.openers.map(opener => ({ opener, format })))
  .sort((left, right) => right.opener.length - left.opener.length)
const ALL_OPENERS = OPENERS.map(entry => entry.opener)
const LONGEST_OPENER = Math.max(...ALL_OPENERS.map(opener => opener.length))

/**
 * A block held back without a resumable answer is read again on every delta only while it is this short; past
 * that, once it has grown by an eighth. Either way each character costs a bounded amount of work over the
 * stream, and holding a delta back gives the same result as receiving it joined to the next one.
 */
const REREAD_EVERY_DELTA_BELOW = 512
const REREAD_GROWTH_DIVISOR = 8

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
  const scanner = createBufferScanner()
  const openerIndex = createOpenerIndex()
  /** A held block is not read again before the buffer is this long (see REREAD_EVERY_DELTA_BELOW). */
  let rereadAt = 0
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

  /** Drops `count` characters from the front of the buffer. */
  function cut(count: number): void {
    if (count === 0) return
    buffer = buffer.slice(count)
    scanner.track(buffer, count)
    openerIndex.track(buffer, count)
  }

  /** Earliest full opener, or the start of a tail that could still grow into one. */
  function findCandidate(final: boolean): number {
    const openers = inFence ? [FENCE] : ALL_OPENERS
    let best = -1
    for (const opener of openers) {
      const index = openerIndex.find(opener)
      if (index !== -1 && (best === -1 || index < best)) best = index
    }
    if (final) return best
    const longest = inFence ? FENCE.length : LONGEST_OPENER
    // A tail that could grow into an opener starts after `best` anyway.
    if (best !== -1 && best <= buffer.length - longest + 1) return best
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
    const openers = inFence ? [FENCE] : ALL_OPENERS
    return openers.some(opener => opener.length > text.length && opener.startsWith(text))
  }

  function context(final: boolean): ParseContext {
    return { final, toolNames, schemas, afterRejectedJson, scan: scanner }
  }

  /** Holds the buffer after a need-more: read again on the next delta, or only once it has grown (see above). */
  function hold(verdict: { resumable?: boolean }): void {
    rereadAt = verdict.resumable || buffer.length < REREAD_EVERY_DELTA_BELOW
      ? 0
      : buffer.length + Math.ceil(buffer.length / REREAD_GROWTH_DIVISOR)
  }

  function process(final: boolean): TextToolCallDelta {
    const output: TextToolCallDelta = { text: '', calls: [] }
    rereadAt = 0
    while (buffer.length > 0) {
      if (atStart && !inFence) {
        // Leading whitespace is visible text either way, and emitting it now keeps it from being searched again.
        const first = buffer.search(/\S/)
        emit(output, buffer.slice(0, first === -1 ? buffer.length : first))
        cut(first === -1 ? buffer.length : first)
        if (first === -1) break
        let verdict: BlockResult = { status: 'text' }
        for (const format of START_FORMATS) {
          verdict = format.parse(buffer, 0, context(final))
          if (verdict.status !== 'text') break
        }
        if (verdict.status === 'need-more') {
          hold(verdict)
          break
        }
        atStart = false
        if (verdict.status === 'calls') {
          output.calls.push(...verdict.calls)
          cut(verdict.end)
          continue
        }
      }
      const candidate = findCandidate(final)
      if (candidate === -1) {
        emit(output, buffer)
        cut(buffer.length)
        break
      }
      emit(output, buffer.slice(0, candidate))
      cut(candidate)
      if (!final && isProperPrefixOfOpener(buffer)) break
      if (inFence) {
        if (!buffer.startsWith(FENCE)) break
        emit(output, FENCE)
        cut(FENCE.length)
        inFence = false
        continue
      }
      const entry = OPENERS.find(item => buffer.startsWith(item.opener))
      if (!entry) break
      const verdict = entry.format.parse(buffer, 0, context(final))
      if (verdict.status === 'need-more') {
        if (final) throw new Error(`text tool-call parser "${entry.format.name}" asked for more text at end of stream`)
        hold(verdict)
        break
      }
      if (verdict.status === 'calls') {
        output.calls.push(...verdict.calls)
        cut(verdict.end)
        afterRejectedJson = false
        continue
      }
      const end = Math.max(verdict.end ?? entry.opener.length, 1)
      emit(output, buffer.slice(0, end))
      cut(end)
      if (verdict.rejectedJson) afterRejectedJson = true
      if (verdict.opensFence) inFence = true
    }
    if (final && buffer.length > 0) {
      emit(output, buffer)
      cut(buffer.length)
    }
    return output
  }

  return {
    push(delta) {
      buffer += delta
      scanner.track(buffer, 0)
      openerIndex.track(buffer, 0)
      if (buffer.length < rereadAt) return { text: '', calls: [] }
      return process(false)
    },
    flush() {
      return process(true)
    },
  }
}
