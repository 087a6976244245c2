import { DuplicateToolError } from '#shared/errors/duplicate-tool-error'

/** A server tool with this name is already registered and `override` was not set. */
export class DuplicateServerToolError extends DuplicateToolError {
  override readonly name: string = 'DuplicateServerToolError'

  constructor(toolName: string) {
    super(toolName, { where: 'on server' })
  }

  static override isInstance(value: unknown): value is DuplicateServerToolError {
    return value instanceof DuplicateServerToolError || (value instanceof Error && value.name === 'DuplicateServerToolError')
  }
}
