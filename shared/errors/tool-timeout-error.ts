import { toolText } from './tool-messages'

export interface ToolTimeoutErrorOptions {
  toolName: string
  timeoutMs: number
  cause?: unknown
}

/** A tool handler did not finish within its timeout; its signal was aborted. */
export class ToolTimeoutError extends Error {
  override readonly name = 'ToolTimeoutError'
  readonly toolName: string
  readonly timeoutMs: number

  constructor(options: ToolTimeoutErrorOptions) {
    super(toolText('tool.timedOut', { name: options.toolName, duration: formatDuration(options.timeoutMs) }).message, { cause: options.cause })
    this.toolName = options.toolName
    this.timeoutMs = options.timeoutMs
  }

  static isInstance(value: unknown): value is ToolTimeoutError {
    return value instanceof ToolTimeoutError || (value instanceof Error && value.name === 'ToolTimeoutError')
  }
}

function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`
}
