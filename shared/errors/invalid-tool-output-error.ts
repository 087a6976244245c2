export interface InvalidToolOutputErrorOptions {
  toolName: string
  /** Why the value cannot be sent to the model, e.g. 'returned undefined'. */
  reason: string
  cause?: unknown
}

/** A tool handler returned something that is not a string or plain JSON (undefined, a function, a cycle...). */
export class InvalidToolOutputError extends Error {
  override readonly name = 'InvalidToolOutputError'
  readonly toolName: string
  readonly reason: string

  constructor(options: InvalidToolOutputErrorOptions) {
    super(`tool "${options.toolName}" ${options.reason}`, { cause: options.cause })
    this.toolName = options.toolName
    this.reason = options.reason
  }

  static isInstance(value: unknown): value is InvalidToolOutputError {
    return value instanceof InvalidToolOutputError || (value instanceof Error && value.name === 'InvalidToolOutputError')
  }
}
