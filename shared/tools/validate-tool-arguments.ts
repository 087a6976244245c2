import { Validator } from '@cfworker/json-schema'
import type { OutputUnit, Schema, SchemaDraft } from '@cfworker/json-schema'
import { InvalidToolInputError } from '../errors/invalid-tool-input-error'
import type { ToolInputIssue } from '../errors/invalid-tool-input-error'
import { describeSchemaError, isExplainedSummary } from './describe-schema-error'

/** A JSON Schema as found in tool definitions and the test suite (booleans are valid schemas too). */
export type ToolSchema = Record<string, unknown> | boolean

export type ParseToolArgumentsResult =
  | { ok: true, value: Record<string, unknown> }
  | { ok: false, error: string }

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Parses the arguments text a model wrote. Empty or blank text means `{}` (models send `""` for tools
 * without parameters). Keys that could reach an object's prototype are dropped at every depth.
 */
export function parseToolArguments(text: string): ParseToolArgumentsResult {
  if (!text.trim()) return { ok: true, value: {} }
  let value: unknown
  try {
    value = JSON.parse(text, (key, item) => (UNSAFE_KEYS.has(key) ? undefined : item))
  }
  catch (error) {
    return { ok: false, error: `arguments are not valid JSON: ${(error as Error).message}` }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
    return { ok: false, error: `arguments must be a JSON object, got ${kind}` }
  }
  return { ok: true, value: value as Record<string, unknown> }
}

export type ValidateToolArgumentsResult =
  | { valid: true }
  | { valid: false, error: InvalidToolInputError }

/**
 * Checks parsed arguments against the tool's JSON Schema and reports one short issue per field
 * (`city: required`, `days: expected integer`), so the model can correct its call.
 */
export function validateToolArguments(toolName: string, schema: ToolSchema, value: unknown): ValidateToolArgumentsResult {
  let result: ReturnType<Validator['validate']>
  try {
    result = getSchemaValidator(schema).validate(value)
  }
  catch (error) {
    // cfworker throws on an unresolvable $ref: the call cannot be checked, so it must not run.
    const message = `the tool's parameter schema cannot be used: ${(error as Error).message.split('\n')[0]}`
    return { valid: false, error: new InvalidToolInputError({ toolName, issues: [{ path: '', message }], cause: error }) }
  }
  if (result.valid) return { valid: true }
  return { valid: false, error: new InvalidToolInputError({ toolName, issues: describeSchemaErrors(result.errors) }) }
}

/** Like validateToolArguments, but throws the InvalidToolInputError. */
export function assertToolArguments(toolName: string, schema: ToolSchema, value: unknown): void {
  const result = validateToolArguments(toolName, schema, value)
  if (!result.valid) throw result.error
}

const validators = new WeakMap<object, Validator>()
const booleanValidators = new Map<boolean, Validator>()

/**
 * The cached cfworker validator of a schema (one per schema object). The draft comes from `$schema`,
 * else `defaultDraft`. The schema is cloned first: cfworker annotates the object it is given, and tool
 * definitions may be frozen or shared.
 * @param defaultDraft @default '2020-12'
 */
export function getSchemaValidator(schema: ToolSchema, defaultDraft: SchemaDraft = '2020-12'): Validator {
  if (typeof schema === 'boolean') {
    let validator = booleanValidators.get(schema)
    if (!validator) booleanValidators.set(schema, validator = new Validator(schema, defaultDraft, false))
    return validator
  }
  let validator = validators.get(schema)
  if (!validator) {
    validator = new Validator(structuredClone(schema) as Schema, draftOf(schema) ?? defaultDraft, false)
    validators.set(schema, validator)
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

/** cfworker's errors → short field-level issues, without the parent summaries that a child error explains. */
export function describeSchemaErrors(errors: OutputUnit[]): ToolInputIssue[] {
  const issues: ToolInputIssue[] = []
  const seen = new Set<string>()
  for (const [position, error] of errors.entries()) {
    if (isExplainedSummary(error, position, errors)) continue
    const issue = describeSchemaError(error, errors)
    if (!issue) continue
    const key = `${issue.path}\u0000${issue.message}`
    if (seen.has(key)) continue
    seen.add(key)
    issues.push(issue)
  }
  return issues.length > 0 ? issues : [{ path: '', message: 'do not match the schema' }]
}
