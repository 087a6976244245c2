/** A server tool with this name is already registered and `override` was not set. */
export class DuplicateServerToolError extends Error {
  override readonly name = 'DuplicateServerToolError'
  readonly toolName: string

  constructor(toolName: string) {
    super(`Tool "${toolName}" is already registered on server. Pick another name, or pass { override: true } to replace it.`)
    this.toolName = toolName
  }

  static isInstance(value: unknown): value is DuplicateServerToolError {
    return value instanceof DuplicateServerToolError || (value instanceof Error && value.name === 'DuplicateServerToolError')
  }
}
