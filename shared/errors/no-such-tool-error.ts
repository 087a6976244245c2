export interface NoSuchToolErrorOptions {
  toolName: string
  /** Names of the tools that were offered for this request. */
  availableTools: string[]
  cause?: unknown
}

/** The model called a tool that was not offered (unknown, or switched off by the user). */
export class NoSuchToolError extends Error {
  override readonly name = 'NoSuchToolError'
  readonly toolName: string
  readonly availableTools: string[]

  constructor(options: NoSuchToolErrorOptions) {
    const available = options.availableTools.length > 0 ? options.availableTools.join(', ') : 'none'
    super(`no tool named "${options.toolName}" is available. Available tools: ${available}`, { cause: options.cause })
    this.toolName = options.toolName
    this.availableTools = options.availableTools
  }

  static isInstance(value: unknown): value is NoSuchToolError {
    return value instanceof NoSuchToolError || (value instanceof Error && value.name === 'NoSuchToolError')
  }
}
