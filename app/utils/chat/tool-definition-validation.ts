import type { JsonSchemaObject, ToolDefinition } from '#shared/types/chat'
import { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error'
import { describeJsonKind, findSchemaProblem, isPlainObject } from './json-schema-structure'
import { labelFromToolName } from './tool-label'
import type { RegisterableToolDefinition, ToolAvailability, ToolSandbox, ToolUiMetadata } from './tool-registry-types'
import type { ToolCatalogMetadata } from '#shared/types/rich-tool-definition'

/** OpenAI's rule for function names. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/
export const DEFAULT_TOOL_ICON = 'i-lucide-wrench'
export const DEFAULT_TOOL_CATEGORY = 'General'

/** A definition checked and split into what the model sees and what the UI shows. */
export interface NormalizedToolDefinition {
  name: string
  /** Pure OpenAI JSON, deep-frozen. */
  definition: ToolDefinition
  label: string
  icon: string
  category: string
  description: string
  /** `ui.defaultEnabled ?? defaultEnabled`; undefined when neither is given. */
  defaultEnabled?: boolean
  timeoutMs?: number
  available?: ToolAvailability
  unavailableReason?: string
  sandbox?: ToolSandbox
  /** A frozen plain-JSON copy of `catalog` (checked in full by the catalog's `validate()`). */
  catalog?: ToolCatalogMetadata
}

/**
 * Check a definition and normalise it: a missing `parameters` becomes `{ type: 'object', properties: {} }`,
 * missing metadata gets defaults, the model-facing part is copied to plain JSON and frozen.
 * @throws InvalidToolDefinitionError naming the tool, the path and the problem
 */
export function normalizeToolDefinition(input: RegisterableToolDefinition): NormalizedToolDefinition {
  if (!isPlainObject(input)) throw new InvalidToolDefinitionError('?', 'definition', `must be an object (got ${describeJsonKind(input)})`)
  const fn = input.function
  const rawName = isPlainObject(fn) && typeof fn.name === 'string' ? fn.name : String(isPlainObject(fn) ? fn.name : '?')
  const fail = (path: string, problem: string): never => {
    throw new InvalidToolDefinitionError(rawName, path, problem)
  }
  if (input.type !== 'function') fail('type', `must be "function" (got ${JSON.stringify(input.type)})`)
  if (!isPlainObject(fn)) return fail('function', `must be an object (got ${describeJsonKind(fn)})`)
  if (typeof fn.name !== 'string') fail('function.name', `must be a string (got ${describeJsonKind(fn.name)})`)
  if (!TOOL_NAME_PATTERN.test(rawName)) {
    fail('function.name', 'must be 1 to 64 letters, digits, "_" or "-" (OpenAI\'s rule ^[a-zA-Z0-9_-]{1,64}$)')
  }
  const ui: ToolUiMetadata = input.ui ?? {}
  if (!isPlainObject(ui as unknown)) fail('ui', `must be an object (got ${describeJsonKind(ui)})`)
  for (const [path, value] of [
    ['function.description', fn.description], ['description', input.description], ['icon', input.icon],
    ['category', input.category], ['ui.label', ui.label], ['ui.icon', ui.icon],
    ['ui.descriptionHint', ui.descriptionHint], ['ui.category', ui.category],
  ] as const) {
    if (value !== undefined && typeof value !== 'string') fail(path, `must be a string (got ${describeJsonKind(value)})`)
  }
  for (const [path, value] of [['function.strict', fn.strict], ['defaultEnabled', input.defaultEnabled], ['ui.defaultEnabled', ui.defaultEnabled]] as const) {
    if (value !== undefined && typeof value !== 'boolean') fail(path, `must be a boolean (got ${describeJsonKind(value)})`)
  }
  const timeoutMs = input.timeoutMs
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    fail('timeoutMs', `must be a positive number of milliseconds (got ${JSON.stringify(timeoutMs)})`)
  }
  if (input.available !== undefined && typeof input.available !== 'function') {
    fail('available', `must be a function (got ${describeJsonKind(input.available)})`)
  }
  if (input.sandbox !== undefined && input.sandbox !== 'worker') {
    fail('sandbox', `must be "worker" or left out (got ${JSON.stringify(input.sandbox)})`)
  }

  if (input.catalog !== undefined && !isPlainObject(input.catalog)) fail('catalog', `must be an object (got ${describeJsonKind(input.catalog)})`)
  const catalog = input.catalog === undefined ? undefined : toFrozenJson(input.catalog, fail)

  const parameters = normalizeParameters(fn.parameters, fail)
  const modelDescription = fn.description ?? input.description
  const definition: ToolDefinition = {
    type: 'function',
    function: {
      name: rawName,
      ...(modelDescription !== undefined && { description: modelDescription }),
      parameters,
      ...(fn.strict !== undefined && { strict: fn.strict }),
    },
  }
  return {
    name: rawName,
    definition: deepFreeze(definition),
    label: ui.label?.trim() || labelFromToolName(rawName),
    icon: ui.icon || input.icon || DEFAULT_TOOL_ICON,
    category: ui.category?.trim() || input.category?.trim() || DEFAULT_TOOL_CATEGORY,
    description: ui.descriptionHint ?? input.description ?? fn.description ?? '',
    defaultEnabled: ui.defaultEnabled ?? input.defaultEnabled,
    timeoutMs,
    available: input.available,
    unavailableReason: typeof input.unavailableReason === 'string' ? input.unavailableReason : undefined,
    sandbox: input.sandbox,
    catalog,
  }
}

function toFrozenJson<T>(value: T, fail: (path: string, problem: string) => never): T {
  try {
    return deepFreeze(JSON.parse(JSON.stringify(value)) as T)
  }
  catch (error) {
    return fail('catalog', `must be plain JSON (${(error as Error).message})`)
  }
}

function normalizeParameters(value: unknown, fail: (path: string, problem: string) => never): JsonSchemaObject {
  if (value === undefined) return { type: 'object', properties: {} }
  if (!isPlainObject(value)) return fail('parameters', `must be a JSON Schema object (got ${describeJsonKind(value)})`)
  if (value.type !== 'object') {
    return fail('parameters', `must be a JSON Schema object (got type ${JSON.stringify(value.type ?? 'undefined')})`)
  }
  let copy: JsonSchemaObject
  try {
    // a JSON round trip is the definition of "what the model receives": it also drops undefined values
    copy = JSON.parse(JSON.stringify(value)) as JsonSchemaObject
  }
  catch (error) {
    return fail('parameters', `must be plain JSON (${(error as Error).message})`)
  }
  const problem = findSchemaProblem(copy)
  if (problem) fail(problem.path ? `parameters.${problem.path}` : 'parameters', problem.problem)
  return copy
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}
