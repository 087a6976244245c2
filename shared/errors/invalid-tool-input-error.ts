/** One problem with a tool's arguments: `path` is dotted (`items[2].name`), empty for the arguments as a whole. */
export interface ToolInputIssue {
  path: string
  message: string
}

export interface InvalidToolInputErrorOptions {
  toolName: string
  issues: ToolInputIssue[]
  cause?: unknown
}

/** The model's arguments are not valid JSON, not an object, or do not match the tool's JSON Schema. */
export class InvalidToolInputError extends Error {
  override readonly name = 'InvalidToolInputError'
  readonly toolName: string
  readonly issues: ToolInputIssue[]

  constructor(options: InvalidToolInputErrorOptions) {
    super(`invalid arguments for "${options.toolName}": ${formatToolInputIssues(options.issues)}`, { cause: options.cause })
    this.toolName = options.toolName
    this.issues = options.issues
  }

  static isInstance(value: unknown): value is InvalidToolInputError {
    return value instanceof InvalidToolInputError || (value instanceof Error && value.name === 'InvalidToolInputError')
  }
}

/** `city: required; days: expected integer` — short enough for the model to fix its call. */
export function formatToolInputIssues(issues: ToolInputIssue[]): string {
  return issues.map(issue => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
}
