import type { JsonSchemaObject, ToolDefinition } from '../../types/chat'
import type { BufferScanner } from './buffer-scanner'

/** One tool call recovered from model text. `arguments` is JSON text (an object for well-formed calls). */
export interface ParsedTextToolCall {
  name: string
  /** JSON text of the arguments, normally an object; a model that wrote a bare string gets that string JSON-encoded. */
  arguments: string
}

/** Options shared by the batch parser and the streaming parser. */
export interface TextToolCallOptions {
  /** Names of the tools offered for this request. Calls to any other name stay text. */
  toolNames: string[]
  /**
   * Optional full definitions. When given, XML-style parameter values (Qwen3-Coder, GLM) whose declared type
   * is `string` are kept as written instead of being JSON-decoded (so `"007"` stays a string).
   * @default undefined
   */
  tools?: ToolDefinition[]
}

export interface TextToolCallResult {
  /** The text with tool-call markup removed; trimmed at both ends when at least one call was found. */
  content: string
  calls: ParsedTextToolCall[]
}

export interface TextToolCallDelta {
  /** Visible text that is certain not to be tool-call markup. */
  text: string
  calls: ParsedTextToolCall[]
}

/** What the format parsers read: the buffer, the position of an opener, and the request's tools. */
export interface ParseContext {
  /** True at end of stream: parsers must decide, never answer `need-more`. */
  final: boolean
  toolNames: ReadonlySet<string>
  schemas: ReadonlyMap<string, JsonSchemaObject>
  /** True when the previous bare JSON value was rejected and only whitespace, `;` or `,` followed it. */
  afterRejectedJson: boolean
  /** The scans over the stream's buffer, resumed between deltas (plain scans outside a stream). */
  scan: BufferScanner
}

/**
 * A parser's verdict at one opener: `calls` (markup consumed up to `end`), `need-more` (streaming: the
 * buffer may still turn into a call, hold it back) or `text` (not a call: emit `end` characters as text).
 * A `resumable` need-more was answered from the scanner's kept state, so asking again after each delta costs
 * only the delta; any other need-more re-reads the block, and the stream asks again only once it has grown.
 */
export type BlockResult =
  | { status: 'calls', calls: ParsedTextToolCall[], end: number }
  | { status: 'need-more', resumable?: boolean }
  | { status: 'text', end?: number, rejectedJson?: boolean, opensFence?: boolean }

/** A text tool-call syntax: literal openers found anywhere, or (startOnly) a parser tried at the output's start. */
export interface TextToolCallFormat {
  name: string
  openers: string[]
  parse: (text: string, start: number, context: ParseContext) => BlockResult
}

export interface StartFormat {
  name: string
  parse: (text: string, start: number, context: ParseContext) => BlockResult
}
