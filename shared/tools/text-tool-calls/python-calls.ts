import type { BlockResult, ParseContext, ParsedTextToolCall } from './text-tool-call-types'
import { makeCall, resolveToolName } from './build-call'
import { isForbiddenKey } from '../../security/forbidden-keys'

/** The text ended inside the expression (streaming: wait for more). */
class EndOfInput extends Error {}
/** The text is not a Python call expression. */
class PythonSyntaxError extends Error {}
/** A value JSON cannot carry (bytes, infinity, a variable): its call is dropped, its siblings are kept. */
const INVALID = Symbol('invalid')

/**
 * Reads Python-style calls (`f(a=1, b='x')`, Llama 3.2/4 pythonic, LFM2, OLMo 3) with literal values only:
 * strings, numbers, True/False/None (and JSON's true/false/null), lists, tuples and dicts. Nothing is evaluated.
 */
class PythonCallReader {
  constructor(private readonly text: string, public index: number) {}

  private peek(): string {
    if (this.index >= this.text.length) throw new EndOfInput()
    return this.text[this.index]!
  }

  skipSpace(): void {
    while (this.index < this.text.length && /\s/.test(this.text[this.index]!)) this.index++
  }

  private expect(char: string): void {
    this.skipSpace()
    if (this.peek() !== char) throw new PythonSyntaxError()
    this.index++
  }

  private identifier(): string {
    if (this.index >= this.text.length) throw new EndOfInput()
    const match = /^[A-Za-z_][\w.-]*/.exec(this.text.slice(this.index))
    if (!match) throw new PythonSyntaxError()
    this.index += match[0].length
    if (this.index >= this.text.length) throw new EndOfInput()
    return match[0]
  }

  /** `name(key=value, ...)`; arguments are INVALID when a value cannot be represented. */
  call(): { name: string, args: Record<string, unknown> | typeof INVALID } {
    this.skipSpace()
    const name = this.identifier()
    this.expect('(')
    const args: Record<string, unknown> = {}
    let valid = true
    for (;;) {
      this.skipSpace()
      if (this.peek() === ')') { this.index++; break }
      const key = this.identifier()
      this.expect('=')
      const value = this.value()
      if (value === INVALID) valid = false
      else if (!isForbiddenKey(key)) args[key] = value
      this.skipSpace()
      const next = this.peek()
      if (next === ',') { this.index++; continue }
      if (next === ')') { this.index++; break }
      throw new PythonSyntaxError()
    }
    return { name, args: valid ? args : INVALID }
  }

  value(): unknown {
    this.skipSpace()
    const char = this.peek()
    if (char === '"' || char === '\'') return this.string()
    if (char === '[') return this.sequence('[', ']')
    if (char === '(') return this.sequence('(', ')')
    if (char === '{') return this.dict()
    if (/[-+\d.]/.test(char)) return this.number()
    if (char === 'b' && /['"]/.test(this.text[this.index + 1] ?? '')) {
      this.index++
      this.string()
      return INVALID
    }
    const word = this.identifier()
    const constants: Record<string, unknown> = { True: true, False: false, None: null, true: true, false: false, null: null }
    if (word in constants) return constants[word]
    throw new PythonSyntaxError()
  }

  private string(): string {
    const quote = this.peek()
    this.index++
    let result = ''
    for (;;) {
      const char = this.peek()
      this.index++
      if (char === quote) return result
      if (char === '\n') throw new PythonSyntaxError()
      if (char !== '\\') { result += char; continue }
      const escaped = this.peek()
      this.index++
      const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '\'': '\'', '"': '"', '0': '\0' }
      if (escaped === 'u' || escaped === 'x') {
        const length = escaped === 'u' ? 4 : 2
        const hex = this.text.slice(this.index, this.index + length)
        if (hex.length < length) throw new EndOfInput()
        if (!/^[\da-fA-F]+$/.test(hex)) throw new PythonSyntaxError()
        result += String.fromCharCode(Number.parseInt(hex, 16))
        this.index += length
      }
      else result += escapes[escaped] ?? `\\${escaped}`
    }
  }

  private number(): unknown {
    const match = /^[-+]?(\d[\d_]*)?(\.\d*)?([eE][-+]?\d+)?/.exec(this.text.slice(this.index))
    if (!match || match[0] === '' || match[0] === '-' || match[0] === '+') throw new PythonSyntaxError()
    this.index += match[0].length
    // `1e` or `1.` at the end of a delta may still grow into a longer number.
    if (/^[\deE+\-._]*$/.test(this.text.slice(this.index))) throw new EndOfInput()
    const value = Number(match[0].replace(/_/g, ''))
    return Number.isFinite(value) ? value : INVALID
  }

  private sequence(open: string, close: string): unknown {
    this.expect(open)
    const items: unknown[] = []
    let valid = true
    for (;;) {
      this.skipSpace()
      if (this.peek() === close) { this.index++; break }
      const item = this.value()
      if (item === INVALID) valid = false
      items.push(item)
      this.skipSpace()
      const next = this.peek()
      if (next === ',') { this.index++; continue }
      if (next === close) { this.index++; break }
      throw new PythonSyntaxError()
    }
    return valid ? items : INVALID
  }

  private dict(): unknown {
    this.expect('{')
    const result: Record<string, unknown> = {}
    let valid = true
    for (;;) {
      this.skipSpace()
      if (this.peek() === '}') { this.index++; break }
      const key = this.value()
      if (typeof key !== 'string') throw new PythonSyntaxError()
      this.expect(':')
      const item = this.value()
      if (item === INVALID) valid = false
      else if (!isForbiddenKey(key)) result[key] = item
      this.skipSpace()
      const next = this.peek()
      if (next === ',') { this.index++; continue }
      if (next === '}') { this.index++; break }
      throw new PythonSyntaxError()
    }
    return valid ? result : INVALID
  }
}

/** How a run of pythonic calls is delimited. */
export type PythonCallLayout = 'bracketed-list' | 'lines'

/**
 * Parses pythonic calls at `start`: a `[f(a=1), g()]` list, or (`lines`) calls separated by newlines or commas
 * up to `stop`. Calls to unknown tools or with unrepresentable values are dropped; a syntax error rejects all.
 */
export function parsePythonCalls(text: string, start: number, context: ParseContext, layout: PythonCallLayout, stop = text.length): BlockResult {
  const reader = new PythonCallReader(text.slice(0, stop), start)
  const calls: ParsedTextToolCall[] = []
  try {
    if (layout === 'bracketed-list') reader.index++
    for (;;) {
      const { name, args } = reader.call()
      const known = resolveToolName(name, context)
      if (known && args !== INVALID) calls.push(makeCall(known, args))
      reader.skipSpace()
      if (layout === 'lines' && reader.index >= stop) break
      const next = text[reader.index]
      if (next === undefined) throw new EndOfInput()
      if (next === ',') { reader.index++; continue }
      if (layout === 'bracketed-list' && next === ']') { reader.index++; break }
      if (layout === 'lines') continue
      throw new PythonSyntaxError()
    }
  }
  catch (error) {
    if (error instanceof EndOfInput && !context.final && stop === text.length) return { status: 'need-more' }
    if (error instanceof EndOfInput || error instanceof PythonSyntaxError) return { status: 'text' }
    throw error
  }
  return calls.length > 0 ? { status: 'calls', calls, end: reader.index } : { status: 'text' }
}
