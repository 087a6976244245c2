/**
 * What the "New tool" editor (and an import) checks before a tool written in the app is kept: the same rules for
 * both, so an imported file cannot hold what the editor would refuse.
 */
import { parseJson } from '#shared/security/parse-json'
import type { JsonSchemaObject } from '#shared/types/chat'
import { InvalidToolDefinitionError } from '#shared/errors/invalid-tool-definition-error'
import { describeJsonKind } from '#shared/tools/definition/json-schema-structure'
import { normalizeToolDefinition, TOOL_NAME_PATTERN } from '#shared/tools/definition/tool-definition-validation'
import type { RegisterableToolDefinition } from '../registry/tool-registry-types'
import {
  USER_TOOL_DEFAULT_TIMEOUT_MS, USER_TOOL_EXECUTOR_MARGIN_MS, USER_TOOL_MAX_CODE_CHARS, USER_TOOL_MAX_DESCRIPTION_CHARS, USER_TOOL_MAX_SCHEMA_CHARS,
  USER_TOOL_MAX_TIMEOUT_MS, USER_TOOL_MIN_TIMEOUT_MS,
} from './user-tool-limits'
import { isRecord } from '#shared/types/is-record'

/** The editor's fields, as typed. */
export interface UserToolDraft {
  name: string
  description: string
  /** JSON Schema of the arguments, as text. */
  parameters: string
  /** The body of `async function (args) { ... }`. */
  code: string
  /** @default USER_TOOL_DEFAULT_TIMEOUT_MS */
  timeoutMs?: number
}

export type UserToolDraftErrors = Partial<Record<keyof UserToolDraft, string>>

export interface ValidateUserToolDraftOptions {
  /** True when another tool (a plugin, a server tool, another tool of the user's) already has the name. */
  isNameTaken?: (name: string) => boolean
}

export const EMPTY_PARAMETERS = `{
  "type": "object",
  "properties": {},
  "additionalProperties": false
}`

/** Every problem of the draft, one message per field; an empty object when the tool can be kept. */
export function validateUserToolDraft(draft: UserToolDraft, options: ValidateUserToolDraftOptions = {}): UserToolDraftErrors {
  const errors: UserToolDraftErrors = {}
  const name = draft.name.trim()
  if (!name) errors.name = 'Give the tool a name.'
  else if (!TOOL_NAME_PATTERN.test(name)) errors.name = 'Use 1 to 64 letters, digits, "_" or "-" (for example convert_units).'
  else if (options.isNameTaken?.(name)) errors.name = `A tool named "${name}" already exists. Pick another name.`

  const description = draft.description.trim()
  if (!description) errors.description = 'Say what the tool does: the model reads this to decide when to call it.'
  else if (description.length > USER_TOOL_MAX_DESCRIPTION_CHARS) errors.description = `Keep it under ${USER_TOOL_MAX_DESCRIPTION_CHARS} characters (it has ${description.length}).`

  const schema = readParametersSchema(draft.parameters)
  if ('error' in schema) errors.parameters = schema.error

  if (!draft.code.trim()) errors.code = 'Write the handler, for example: return args.a + args.b'
  else if (draft.code.length > USER_TOOL_MAX_CODE_CHARS) errors.code = `The handler is ${draft.code.length} characters long; at most ${USER_TOOL_MAX_CODE_CHARS} are kept.`

  const timeoutMs = draft.timeoutMs
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs >= USER_TOOL_MIN_TIMEOUT_MS && timeoutMs <= USER_TOOL_MAX_TIMEOUT_MS)) {
    errors.timeoutMs = `Use a whole number of milliseconds from ${USER_TOOL_MIN_TIMEOUT_MS} to ${USER_TOOL_MAX_TIMEOUT_MS}.`
  }
  return errors
}

/**
 * The arguments schema typed as text: JSON first (with the line and column of a syntax error), then a JSON Schema
 * for an object, checked by the same rules as every registered tool's.
 */
export function readParametersSchema(text: string): { schema: JsonSchemaObject } | { error: string } {
  if (text.length > USER_TOOL_MAX_SCHEMA_CHARS) return { error: `The schema is ${text.length} characters long; at most ${USER_TOOL_MAX_SCHEMA_CHARS} are kept.` }
  if (!text.trim()) return { error: 'Write the JSON Schema of the arguments (an object schema; {"type": "object", "properties": {}} for none).' }
  let value: unknown
  try {
    value = parseJson(text)
  }
  catch (error) {
    return { error: `Not valid JSON: ${describeJsonSyntaxError(text, error)}` }
  }
  if (!isRecord(value)) return { error: `The schema must be a JSON object (got ${describeJsonKind(value)}).` }
  try {
    normalizeToolDefinition({ type: 'function', function: { name: 'schema_check', parameters: value as JsonSchemaObject } })
  }
  catch (error) {
    if (InvalidToolDefinitionError.isInstance(error)) return { error: `Not a usable JSON Schema: ${error.path} ${error.problem}.` }
    throw error
  }
  // normalizeToolDefinition accepted it, so it is an object schema
  return { schema: value as JsonSchemaObject }
}

/** The registry definition of a valid draft. Tools written in the app ask before running and act only in the app. */
export function toToolDefinition(draft: UserToolDraft): RegisterableToolDefinition {
  const schema = readParametersSchema(draft.parameters)
  if ('error' in schema) throw new InvalidToolDefinitionError(draft.name, 'parameters', schema.error)
  return {
    type: 'function',
    function: { name: draft.name.trim(), description: draft.description.trim(), parameters: schema.schema },
    category: 'Your tools',
    icon: 'i-lucide-square-code',
    // the page kills the worker at the limit (createUserToolSandbox); the executor's timeout comes after that
    timeoutMs: (draft.timeoutMs ?? USER_TOOL_DEFAULT_TIMEOUT_MS) + USER_TOOL_EXECUTOR_MARGIN_MS,
    sandbox: 'worker',
    approval: 'ask',
    actsOutsideApp: false,
  }
}

/**
 * "Unexpected token } … (line 3, column 5)": the engine's message with the line and column written one way, whether the
 * engine gives only a position (Node 20) or its own "(line 3 column 5)" too (Node 24, recent browsers).
 */
function describeJsonSyntaxError(text: string, error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/ \(line \d+ column \d+\)$/, '')
  const position = /at position (\d+)/.exec(message)
  if (!position || /line \d+/i.test(message)) return message
  const before = text.slice(0, Number(position[1]))
  const line = before.split('\n').length
  const column = before.length - before.lastIndexOf('\n')
  return `${message} (line ${line}, column ${column})`
}
