export interface ToolExecutionErrorOptions {
  toolName: string
  /** What the handler threw or rejected with. */
  cause: unknown
}

/** A tool handler threw or returned a rejected promise. */
export class ToolExecutionError extends Error {
  override readonly name = 'ToolExecutionError'
  readonly toolName: string

  constructor(options: ToolExecutionErrorOptions) {
    super(`tool "${options.toolName}" failed: ${describeCause(options.cause)}`, { cause: options.cause })
    this.toolName = options.toolName
  }

  static isInstance(value: unknown): value is ToolExecutionError {
    return value instanceof ToolExecutionError || (value instanceof Error && value.name === 'ToolExecutionError')
  }
}

/** Plugins throw anything (strings, objects, Errors with empty messages): make it one short readable line. */
function describeCause(cause: unknown): string {
  const text = causeText(cause)
  return text.length > 500 ? `${text.slice(0, 500)}…` : text
}

function causeText(cause: unknown): string {
  if (cause instanceof Error) return cause.message || cause.name
  if (typeof cause === 'string') return cause || 'unknown error'
  try {
    return JSON.stringify(cause) ?? String(cause)
  }
  catch {
    return String(cause)
  }
}
