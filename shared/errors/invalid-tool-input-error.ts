import { clipMiddle, clipText } from './clip-text'
import { toolText } from './tool-messages'

/** One problem with a tool's arguments: `path` is dotted (`items[2].name`), empty for the arguments as a whole. */
export interface ToolInputIssue {
  path: string
  message: string
}

export interface InvalidToolInputErrorOptions {
  toolName: string
  /** The issues to list, most useful first. Only as many as fit in the message are listed; the rest are counted. */
  issues: ToolInputIssue[]
  /** Further issues that were found but not passed in `issues`. @default 0 */
  omittedIssues?: number
  /** True when the check stopped before it found every issue (arguments too large to check fully). @default false */
  incomplete?: boolean
  cause?: unknown
}

/**
 * Limits of the text sent back to the model. Its context window pays for every character, and the paths and
 * messages come from its own arguments: a few issues fix the call, a megabyte of them only repeats the mistake.
 * With the tool name, the whole message stays under 2 KB.
 */
export const MAX_ISSUES_TEXT_CHARS = 1_800
const MAX_PATH_CHARS = 120
const MAX_MESSAGE_CHARS = 200
const MAX_TOOL_NAME_CHARS = 100

/** The model's arguments are not valid JSON, not an object, or do not match the tool's JSON Schema. */
export class InvalidToolInputError extends Error {
  override readonly name = 'InvalidToolInputError'
  readonly toolName: string
  readonly issues: ToolInputIssue[]
  readonly omittedIssues: number
  readonly incomplete: boolean

  constructor(options: InvalidToolInputErrorOptions) {
    const summary = formatToolInputIssues(options.issues, options)
    super(toolText('tool.invalidArguments', { name: clipMiddle(options.toolName, MAX_TOOL_NAME_CHARS), reason: summary }).message, { cause: options.cause })
    this.toolName = options.toolName
    this.issues = options.issues
    this.omittedIssues = options.omittedIssues ?? 0
    this.incomplete = options.incomplete ?? false
  }

  static isInstance(value: unknown): value is InvalidToolInputError {
    return value instanceof InvalidToolInputError || (value instanceof Error && value.name === 'InvalidToolInputError')
  }
}

/**
 * `city: required; days: expected integer` — short enough for the model to fix its call. Lists issues while they
 * fit in MAX_ISSUES_TEXT_CHARS (always at least one) and counts the rest: `...; and 17982 more` (`at least` when
 * the check stopped early).
 */
export function formatToolInputIssues(issues: ToolInputIssue[], options: { omittedIssues?: number, incomplete?: boolean } = {}): string {
  const listed: string[] = []
  let used = 0
  for (const issue of issues) {
    const text = formatIssue(issue)
    if (listed.length > 0 && used + text.length + 2 > MAX_ISSUES_TEXT_CHARS) break
    listed.push(text)
    used += text.length + 2
  }
  const more = issues.length - listed.length + (options.omittedIssues ?? 0)
  let summary = listed.join('; ')
  if (options.incomplete) summary += more > 0 ? `; and at least ${more} more` : '; and possibly more (the check stopped at the first problem)'
  else if (more > 0) summary += `; and ${more} more`
  return summary
}

function formatIssue(issue: ToolInputIssue): string {
  const message = clipText(issue.message, MAX_MESSAGE_CHARS)
  return issue.path ? `${clipMiddle(issue.path, MAX_PATH_CHARS)}: ${message}` : message
}
