/** A tool with this name is already registered and `override` was not set. */
export class DuplicateToolError extends Error {
  override readonly name = 'DuplicateToolError'
  readonly toolName: string

  constructor(toolName: string, options: { cause?: unknown } = {}) {
    super(
      `Tool "${toolName}" is already registered. Pick another name, or pass { override: true } to replace it.`,
      { cause: options.cause },
    )
    this.toolName = toolName
  }

  static isInstance(value: unknown): value is DuplicateToolError {
    return value instanceof DuplicateToolError || (value instanceof Error && value.name === 'DuplicateToolError')
  }
}
