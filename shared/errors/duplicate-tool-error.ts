/** A tool with this name is already registered and `override` was not set. */
export class DuplicateToolError extends Error {
  override readonly name: string = 'DuplicateToolError'
  readonly toolName: string

  /** `where` names the registry in the message when it is not the browser's ('on server'). */
  constructor(toolName: string, options: { cause?: unknown, where?: string } = {}) {
    const where = options.where ? ` ${options.where}` : ''
    super(`Tool "${toolName}" is already registered${where}. Pick another name, or pass { override: true } to replace it.`, { cause: options.cause })
    this.toolName = toolName
  }

  static isInstance(value: unknown): value is DuplicateToolError {
    return value instanceof DuplicateToolError || (value instanceof Error && value.name === 'DuplicateToolError')
  }
}
