import { describeValue } from './describe-value'
import { toolText } from './tool-messages'

export interface ToolExecutionErrorOptions {
  toolName: string
  /** What the handler threw or rejected with. */
  cause: unknown
}

/** Plugins throw anything (strings, objects, Errors with empty messages): one line of at most this many characters. */
const MAX_CAUSE_CHARS = 500

/** A tool handler threw or returned a rejected promise. */
export class ToolExecutionError extends Error {
  override readonly name = 'ToolExecutionError'
  readonly toolName: string

  constructor(options: ToolExecutionErrorOptions) {
    super(toolText('tool.failed', { name: options.toolName, reason: describeValue(options.cause, MAX_CAUSE_CHARS) }).message, { cause: options.cause })
    this.toolName = options.toolName
  }

  static isInstance(value: unknown): value is ToolExecutionError {
    return value instanceof ToolExecutionError || (value instanceof Error && value.name === 'ToolExecutionError')
  }
}
