/** A tool definition was rejected at registration: bad name, bad parameters schema, bad metadata. */
export class InvalidToolDefinitionError extends Error {
  override readonly name = 'InvalidToolDefinitionError'
  /** The tool's name as given (may itself be the invalid part). */
  readonly toolName: string
  /** Where in the definition the problem is, e.g. `parameters.properties.city.type`. */
  readonly path: string
  /** The problem alone, without the tool name: `must be a string array (got number)`. */
  readonly problem: string

  constructor(toolName: string, path: string, problem: string, options: { cause?: unknown } = {}) {
    super(`Tool "${toolName}": ${path} ${problem}`, { cause: options.cause })
    this.toolName = toolName
    this.path = path
    this.problem = problem
  }

  static isInstance(value: unknown): value is InvalidToolDefinitionError {
    return value instanceof InvalidToolDefinitionError
      || (value instanceof Error && value.name === 'InvalidToolDefinitionError')
  }
}
