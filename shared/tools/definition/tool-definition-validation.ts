import type { JsonSchemaObject, ToolDefinition } from '../../types/chat'
import type { ToolApprovalPolicy } from '../../types/server-tools'
import { APPROVAL_POLICIES, defaultApprovalPolicy } from '../../loop/tool-approval'
import { InvalidToolDefinitionError } from '../../errors/invalid-tool-definition-error'
import { describeJsonKind, findSchemaProblem } from './json-schema-structure'
import { RegisteredToolDefinitionRecord } from './registered-tool-definition'
import type {
  RegisterableToolDefinition, RegisteredToolDefinition, ToolAvailability, ToolSandbox, ToolUiMetadata,
} from './tool-definition-types'
import type { ToolCatalogMetadata } from '../../types/rich-tool-definition'
import { isRecord } from '../../types/is-record'
import { declaredOriginProblem, MAX_DECLARED_ORIGINS } from '../../security/declared-origins'

import { TOOL_NAME_PATTERN } from '../../history/tool-call-shape'

export { TOOL_NAME_PATTERN }
export { DEFAULT_TOOL_CATEGORY, DEFAULT_TOOL_ICON } from './registered-tool-definition'

/** A definition checked and split into what the model sees and what the UI shows. */
export interface NormalizedToolDefinition {
  name: string
  /** Pure OpenAI JSON, deep-frozen, with the resolved `ui` read through a getter. */
  definition: RegisteredToolDefinition
  description: string
  /** `ui.defaultEnabled ?? defaultEnabled`; undefined when neither is given. */
  defaultEnabled?: boolean
  timeoutMs?: number
  available?: ToolAvailability
  unavailableReason?: string
  sandbox?: ToolSandbox
  /** The approval policy before the user chooses: `approval`, else 'ask' when `actsOutsideApp`, else 'auto'. */
  defaultApproval: ToolApprovalPolicy
  /** The origins the handler connects to, frozen; empty when none is declared. */
  connects: readonly string[]
  /** A frozen plain-JSON copy of `catalog` (checked in full by the catalog's `validate()`). */
  catalog?: ToolCatalogMetadata
}

type FieldReader = (input: RegisterableToolDefinition, fn: Record<string, unknown>, ui: ToolUiMetadata) => unknown
// module-level, so checking a definition allocates nothing for them (10,000 registrations must stay cheap)
const STRING_FIELDS: ReadonlyArray<readonly [string, FieldReader]> = [
  ['function.description', (_, fn) => fn.description], ['description', input => input.description],
  ['icon', input => input.icon], ['category', input => input.category], ['ui.label', (_, __, ui) => ui.label],
  ['ui.icon', (_, __, ui) => ui.icon], ['ui.descriptionHint', (_, __, ui) => ui.descriptionHint],
  ['ui.category', (_, __, ui) => ui.category],
]
const BOOLEAN_FIELDS: ReadonlyArray<readonly [string, FieldReader]> = [
  ['function.strict', (_, fn) => fn.strict], ['defaultEnabled', input => input.defaultEnabled],
  ['ui.defaultEnabled', (_, __, ui) => ui.defaultEnabled],
]
const NO_UI: ToolUiMetadata = Object.freeze({})

/**
 * Check a definition and normalise it: a missing `parameters` becomes `{ type: 'object', properties: {} }`,
 * missing metadata gets defaults, the model-facing part is copied to plain JSON and frozen.
 * @throws InvalidToolDefinitionError naming the tool, the path and the problem
 */
export function normalizeToolDefinition(input: RegisterableToolDefinition): NormalizedToolDefinition {
  if (!isRecord(input)) throw new InvalidToolDefinitionError('?', 'definition', `must be an object (got ${describeJsonKind(input)})`)
  const fn = input.function
  const rawName = isRecord(fn) && typeof fn.name === 'string' ? fn.name : String(isRecord(fn) ? fn.name : '?')
  if (input.type !== 'function') fail(rawName, 'type', `must be "function" (got ${JSON.stringify(input.type)})`)
  if (!isRecord(fn)) return fail(rawName, 'function', `must be an object (got ${describeJsonKind(fn)})`)
  if (typeof fn.name !== 'string') fail(rawName, 'function.name', `must be a string (got ${describeJsonKind(fn.name)})`)
  if (!TOOL_NAME_PATTERN.test(rawName)) {
    fail(rawName, 'function.name', 'must be 1 to 64 letters, digits, "_" or "-" (OpenAI\'s rule ^[a-zA-Z0-9_-]{1,64}$)')
  }
  const ui: ToolUiMetadata = input.ui ?? NO_UI
  if (!isRecord(ui as unknown)) fail(rawName, 'ui', `must be an object (got ${describeJsonKind(ui)})`)
  for (const [path, read] of STRING_FIELDS) {
    const value = read(input, fn, ui)
    if (value !== undefined && typeof value !== 'string') fail(rawName, path, `must be a string (got ${describeJsonKind(value)})`)
  }
  for (const [path, read] of BOOLEAN_FIELDS) {
    const value = read(input, fn, ui)
    if (value !== undefined && typeof value !== 'boolean') fail(rawName, path, `must be a boolean (got ${describeJsonKind(value)})`)
  }
  const timeoutMs = input.timeoutMs
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    fail(rawName, 'timeoutMs', `must be a positive number of milliseconds (got ${JSON.stringify(timeoutMs)})`)
  }
  if (input.available !== undefined && typeof input.available !== 'function') {
    fail(rawName, 'available', `must be a function (got ${describeJsonKind(input.available)})`)
  }
  if (input.approval !== undefined && !(APPROVAL_POLICIES as readonly unknown[]).includes(input.approval)) {
    fail(rawName, 'approval', `must be one of ${APPROVAL_POLICIES.map(policy => `"${policy}"`).join(', ')} (got ${JSON.stringify(input.approval)})`)
  }
  if (input.actsOutsideApp !== undefined && typeof input.actsOutsideApp !== 'boolean') fail(rawName, 'actsOutsideApp', `must be a boolean (got ${describeJsonKind(input.actsOutsideApp)})`)
  if (input.sandbox !== undefined && input.sandbox !== 'worker') {
    fail(rawName, 'sandbox', `must be "worker" or left out (got ${JSON.stringify(input.sandbox)})`)
  }

  const connects = checkDeclaredOrigins(rawName, input.connects)

  if (input.catalog !== undefined && !isRecord(input.catalog)) fail(rawName, 'catalog', `must be an object (got ${describeJsonKind(input.catalog)})`)
  const catalog = input.catalog === undefined ? undefined : toFrozenJson(rawName, input.catalog)

  const parameters = normalizeParameters(rawName, fn.parameters)
  const modelDescription = fn.description ?? input.description
  // key order as authors write it (name, description, parameters, strict): the request is byte-for-byte theirs
  const modelFunction: ToolDefinition['function'] = modelDescription === undefined
    ? { name: rawName, parameters }
    : { name: rawName, description: modelDescription, parameters }
  if (fn.strict !== undefined) modelFunction.strict = fn.strict as boolean
  const definition = new RegisteredToolDefinitionRecord(modelFunction, { ui, icon: input.icon, category: input.category, defaultEnabled: input.defaultEnabled })
  return {
    name: rawName,
    definition,
    description: ui.descriptionHint ?? input.description ?? fn.description ?? '',
    defaultEnabled: ui.defaultEnabled ?? input.defaultEnabled,
    timeoutMs,
    available: input.available,
    unavailableReason: typeof input.unavailableReason === 'string' ? input.unavailableReason : undefined,
    sandbox: input.sandbox,
    defaultApproval: defaultApprovalPolicy(input),
    connects,
    catalog,
  }
}

const NO_ORIGINS: readonly string[] = Object.freeze([])

/**
 * A definition's `connects`, checked (https origins alone, at most MAX_DECLARED_ORIGINS) and frozen.
 * @throws InvalidToolDefinitionError naming the tool and the entry
 */
export function checkDeclaredOrigins(name: string, value: unknown): readonly string[] {
  if (value === undefined) return NO_ORIGINS
  if (!Array.isArray(value)) return fail(name, 'connects', `must be an array of origins (got ${describeJsonKind(value)})`)
  if (value.length > MAX_DECLARED_ORIGINS) fail(name, 'connects', `may list at most ${MAX_DECLARED_ORIGINS} origins (got ${value.length})`)
  value.forEach((origin, index) => {
    const problem = declaredOriginProblem(origin)
    if (problem) fail(name, `connects[${index}]`, problem)
  })
  return Object.freeze([...new Set(value as string[])])
}

function toFrozenJson<T>(name: string, value: T): T {
  try {
    return deepFreeze(JSON.parse(JSON.stringify(value)) as T)
  }
  catch (error) {
    return fail(name, 'catalog', `must be plain JSON (${(error as Error).message})`)
  }
}

type CheckedParameters = { schema: JsonSchemaObject } | { path: string, problem: string }

/**
 * Each parameters object is checked and copied once: registering 10,000 tools that share schemas (or
 * registering the same plugin again on hot reload) does the work once per schema, and every tool holding the
 * same frozen copy also shares the executor's compiled validator (cached by schema object). A schema must
 * therefore not be changed after it was registered; pass a new object instead.
 */
const checkedParameters = new WeakMap<object, CheckedParameters>()

/** Module-level rather than a closure per call: checking a definition that is fine allocates nothing for errors. */
function fail(name: string, path: string, problem: string): never {
  throw new InvalidToolDefinitionError(name, path, problem)
}

function normalizeParameters(name: string, value: unknown): JsonSchemaObject {
  if (value === undefined) return EMPTY_PARAMETERS
  if (!isRecord(value)) return fail(name, 'parameters', `must be a JSON Schema object (got ${describeJsonKind(value)})`)
  let checked = checkedParameters.get(value)
  if (!checked) {
    checked = checkParameters(value)
    checkedParameters.set(value, checked)
    // the frozen copy is its own answer: a definition taken from a registered tool registers again for free
    if ('schema' in checked) checkedParameters.set(checked.schema, checked)
  }
  if ('problem' in checked) return fail(name, checked.path, checked.problem)
  return checked.schema
}

const EMPTY_PARAMETERS: JsonSchemaObject = deepFreeze({ type: 'object', properties: {} })

function checkParameters(value: Record<string, unknown>): CheckedParameters {
  if (value.type !== 'object') {
    return { path: 'parameters', problem: `must be a JSON Schema object (got type ${JSON.stringify(value.type ?? 'undefined')})` }
  }
  let copy: JsonSchemaObject
  try {
    // a JSON round trip is the definition of "what the model receives": it also drops undefined values
    copy = JSON.parse(JSON.stringify(value)) as JsonSchemaObject
  }
  catch (error) {
    return { path: 'parameters', problem: `must be plain JSON (${(error as Error).message})` }
  }
  const problem = findSchemaProblem(copy)
  if (problem) return { path: problem.path ? `parameters.${problem.path}` : 'parameters', problem: problem.problem }
  return { schema: deepFreeze(copy) }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}
