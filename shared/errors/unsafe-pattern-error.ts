import { clipMiddle } from './clip-text'

export interface UnsafePatternErrorOptions {
  /** The ECMAScript pattern as the schema wrote it. */
  pattern: string
  /** Why it cannot be checked in linear time, in words a plugin author can act on. */
  reason: string
  cause?: unknown
}

/** Patterns are long and hostile ones longer: the message names enough of one to find it in the schema. */
const MAX_PATTERN_CHARS_SHOWN = 60

/**
 * A JSON-Schema `pattern` or `patternProperties` key that is refused instead of run: it needs backtracking
 * (lookaround, backreferences), is too long, or would cost too much on the value at hand. Patterns come from
 * plugins, MCP servers and clients, and a backtracking engine lets one of them hold the thread for minutes.
 */
export class UnsafePatternError extends Error {
  override readonly name = 'UnsafePatternError'
  readonly pattern: string
  readonly reason: string

  constructor(options: UnsafePatternErrorOptions) {
    super(`pattern ${JSON.stringify(clipMiddle(options.pattern, MAX_PATTERN_CHARS_SHOWN))} is refused: ${options.reason}`, { cause: options.cause })
    this.pattern = options.pattern
    this.reason = options.reason
  }

  static isInstance(value: unknown): value is UnsafePatternError {
    return value instanceof UnsafePatternError || (value instanceof Error && value.name === 'UnsafePatternError')
  }
}
