import type { OutputUnit, Schema, SchemaDraft } from '@cfworker/json-schema'
import { InvalidToolInputError } from '../errors/invalid-tool-input-error'
import { UnsafePatternError } from '../errors/unsafe-pattern-error'
import { describeValue } from '../errors/describe-value'
import { describeSchemaErrors } from './describe-schema-errors'
import { FULL_REPORT_MAX_CHARS } from './tool-limits'
import { refuseCostlyUniqueItems } from './unique-items-budget'
import { LinearPatternValidator } from './patterns/linear-pattern-validator'

export { parseToolArguments } from './parse-tool-arguments'
export type { ParseToolArgumentsResult } from './parse-tool-arguments'
export { describeSchemaErrors } from './describe-schema-errors'

/** A JSON Schema as found in tool definitions and the test suite (booleans are valid schemas too). */
export type ToolSchema = Record<string, unknown> | boolean

export type ValidateToolArgumentsResult =
  | { valid: true }
  | { valid: false, error: InvalidToolInputError }

export interface ValidateToolArgumentsOptions {
  /**
   * Length of the arguments text the value was parsed from. Above FULL_REPORT_MAX_CHARS the check stops at the
   * first problems instead of collecting every one. @default 0
   */
  textLength?: number
}

/**
 * Checks parsed arguments against the tool's JSON Schema and reports one short issue per field
 * (`city: required`, `days: expected integer`), so the model can correct its call. The report lists the first
 * issues and counts the rest, whatever the size of the arguments.
 */
export function validateToolArguments(toolName: string, schema: ToolSchema, value: unknown, options: ValidateToolArgumentsOptions = {}): ValidateToolArgumentsResult {
  const refusal = refuseCostlyUniqueItems(schema, value)
  if (refusal) return { valid: false, error: new InvalidToolInputError({ toolName, issues: [{ path: '', message: refusal }] }) }
  let check: SchemaCheck
  try {
    check = checkSchema(schema, value, (options.textLength ?? 0) <= FULL_REPORT_MAX_CHARS)
  }
  catch (error) {
    const message = error instanceof RangeError
      ? 'arguments are too large or too deeply nested to check against the schema'
      // A pattern that needs backtracking, or too much work for these arguments: the call cannot be checked.
      : UnsafePatternError.isInstance(error)
        ? `the tool's parameter schema cannot be checked: ${error.message}`
      // cfworker throws on an unresolvable $ref: the call cannot be checked, so it must not run.
      : `the tool's parameter schema cannot be used: ${describeValue(error, 200).split('\n')[0]}`
    return { valid: false, error: new InvalidToolInputError({ toolName, issues: [{ path: '', message }], cause: error }) }
  }
  if (check.valid) return { valid: true }
  const { issues, omittedIssues } = describeSchemaErrors(check.errors)
  return { valid: false, error: new InvalidToolInputError({ toolName, issues, omittedIssues, incomplete: !check.complete }) }
}

/** Like validateToolArguments, but throws the InvalidToolInputError. */
export function assertToolArguments(toolName: string, schema: ToolSchema, value: unknown): void {
  const result = validateToolArguments(toolName, schema, value)
  if (!result.valid) throw result.error
}

interface SchemaCheck {
  valid: boolean
  errors: OutputUnit[]
  /** False when the validator stopped at the first problems. */
  complete: boolean
}

/**
 * Runs the validator, collecting every error when asked. Collecting can still overflow the stack (cfworker
 * spreads child errors into `push`, and Safari allows 65,536 arguments): then the check stops at the first problems.
 */
function checkSchema(schema: ToolSchema, value: unknown, collectAll: boolean): SchemaCheck {
  if (collectAll) {
    try {
      return { ...getSchemaValidator(schema).validate(value), complete: true }
    }
    catch (error) {
      if (!(error instanceof RangeError)) throw error
    }
  }
  return { ...getSchemaValidator(schema, '2020-12', true).validate(value), complete: false }
}

const validators = new WeakMap<object, LinearPatternValidator>()
const firstProblemValidators = new WeakMap<object, LinearPatternValidator>()
const booleanValidators = new Map<string, LinearPatternValidator>()

/**
 * The cached cfworker validator of a schema (one per schema object and mode). The draft comes from `$schema`,
 * else `defaultDraft`. The schema is cloned first: cfworker annotates the object it is given, and tool
 * definitions may be frozen or shared. Its `pattern` and `patternProperties` checks run in linear time
 * (LinearPatternValidator), whoever wrote the schema.
 * @param defaultDraft @default '2020-12'
 * @param stopAtFirstProblem cfworker's `shortCircuit`: same verdict, but errors only up to the first failing keyword. @default false
 */
export function getSchemaValidator(schema: ToolSchema, defaultDraft: SchemaDraft = '2020-12', stopAtFirstProblem = false): LinearPatternValidator {
  if (typeof schema === 'boolean') {
    const key = `${schema}/${defaultDraft}/${stopAtFirstProblem}`
    let validator = booleanValidators.get(key)
    if (!validator) booleanValidators.set(key, validator = new LinearPatternValidator(schema, defaultDraft, stopAtFirstProblem))
    return validator
  }
  const cache = stopAtFirstProblem ? firstProblemValidators : validators
  let validator = cache.get(schema)
  if (!validator) {
    validator = new LinearPatternValidator(structuredClone(schema) as Schema, draftOf(schema) ?? defaultDraft, stopAtFirstProblem)
    cache.set(schema, validator)
  }
  return validator
}

/** Maps a `$schema` URI to cfworker's draft name. Draft 6 is read as draft 7, its superset. */
export function draftOf(schema: Record<string, unknown>): SchemaDraft | undefined {
  const uri = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (uri.includes('2020-12')) return '2020-12'
  if (uri.includes('2019-09')) return '2019-09'
  if (uri.includes('draft-07') || uri.includes('draft-06')) return '7'
  if (uri.includes('draft-04')) return '4'
  return undefined
}
