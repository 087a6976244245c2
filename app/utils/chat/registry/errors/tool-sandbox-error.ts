export interface ToolSandboxErrorOptions {
  toolName: string
  /** What went wrong, to follow "the tool's Web Worker": `failed to load (...)`. */
  problem: string
  cause?: unknown
}

/**
 * A sandboxed tool's worker could not give an answer: it failed to load, crashed outside the handler, or was
 * shut down. (An error the handler throws is not this: it comes back with the handler's own message.)
 */
export class ToolSandboxError extends Error {
  override readonly name = 'ToolSandboxError'
  readonly toolName: string

  constructor(options: ToolSandboxErrorOptions) {
    super(`the tool's Web Worker ${options.problem}`, { cause: options.cause })
    this.toolName = options.toolName
  }

  static isInstance(value: unknown): value is ToolSandboxError {
    return value instanceof ToolSandboxError || (value instanceof Error && value.name === 'ToolSandboxError')
  }
}
