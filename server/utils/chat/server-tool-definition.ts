import { isRecord } from '#shared/types/is-record'
import type { JsonSchemaObject, ToolDefinition } from '#shared/types/chat'
import type { ServerToolDefinition, ToolRuntime } from '#shared/types/server-tools'
import { TOOL_NAME_PATTERN } from '#shared/history/tool-call-shape'

const RUNTIMES: readonly ToolRuntime[] = ['hybrid', 'client', 'server']

/** A server tool's handler timeout when neither the options nor the definition set one. */
export const DEFAULT_SERVER_TOOL_TIMEOUT_MS = 10_000
/** The longest a server tool may run: a request to the execute route, or a background step, waits for it. */
export const MAX_SERVER_TOOL_TIMEOUT_MS = 120_000

/** A definition checked and split into the model's part and the listing's part. */
export interface NormalizedServerToolDefinition {
  name: string
  /** Pure OpenAI JSON: what the executor validates against and a model would receive. */
  modelDefinition: ToolDefinition
  /** The definition with its metadata, as plain JSON (functions such as a browser `available` dropped). */
  definition: ServerToolDefinition
}

/**
 * Checks a definition the way the browser registry does for what matters on the server (name, parameters shape)
 * and copies it to plain JSON, so a later change to the caller's object cannot change the registered tool.
 * @throws TypeError naming the tool and the problem
 */
export function normalizeServerToolDefinition(input: ServerToolDefinition): NormalizedServerToolDefinition {
  const fn = input?.function
  const name = typeof fn?.name === 'string' ? fn.name : '?'
  const fail = (problem: string): never => {
    throw new TypeError(`Server tool "${name}": ${problem}`)
  }
  if (input?.type !== 'function' || typeof fn !== 'object' || fn === null) fail('the definition must be { type: "function", function: { name, ... } }')
  if (!TOOL_NAME_PATTERN.test(name)) fail('function.name must be 1 to 64 letters, digits, "_" or "-"')
  const parameters: JsonSchemaObject = fn.parameters ?? { type: 'object', properties: {} }
  if (typeof parameters !== 'object' || parameters === null || parameters.type !== 'object') fail('function.parameters must be a JSON Schema object ({ type: "object", ... })')
  if (input.runtime !== undefined && !RUNTIMES.includes(input.runtime)) fail(`runtime must be one of ${RUNTIMES.join(', ')}`)

  const modelDefinition = toPlainJson<ToolDefinition>({
    type: 'function',
    function: { name, description: fn.description ?? input.description, parameters, strict: fn.strict },
  }, fail)
  const { type, ui, description, icon, category, defaultEnabled, timeoutMs, runtime, actsOutsideApp, catalog, approval } = input
  if (catalog !== undefined && !isRecord(catalog)) fail('catalog must be an object')
  if (approval !== undefined && !['auto', 'ask', 'never'].includes(approval)) fail('approval must be "auto", "ask" or "never"')
  const definition = toPlainJson<ServerToolDefinition>({
    type, function: { ...modelDefinition.function }, ui, description, icon, category, defaultEnabled, timeoutMs, runtime, actsOutsideApp, catalog, approval,
  }, fail)
  return { name, modelDefinition, definition }
}

/** The runtime a registration ends up with: the options', else the definition's, else hybrid (the design's rule). */
export function resolveRuntime(optionRuntime: ToolRuntime | undefined, definition: ServerToolDefinition): ToolRuntime {
  const runtime = optionRuntime ?? definition.runtime ?? 'hybrid'
  if (!RUNTIMES.includes(runtime)) throw new TypeError(`Server tool "${definition.function.name}": runtime must be one of ${RUNTIMES.join(', ')}`)
  return runtime
}

/**
 * The handler timeout in whole milliseconds. A value that is not a positive number is a plugin author's mistake
 * and throws; one above the maximum is lowered to it, so no tool can hold a request open for minutes.
 */
export function resolveTimeoutMs(name: string, value: unknown): number {
  if (value === undefined) return DEFAULT_SERVER_TOOL_TIMEOUT_MS
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`Server tool "${name}": timeoutMs must be a positive number of milliseconds (got ${JSON.stringify(value) ?? String(value)})`)
  }
  return Math.min(Math.ceil(value), MAX_SERVER_TOOL_TIMEOUT_MS)
}

function toPlainJson<T>(value: T, fail: (problem: string) => never): T {
  try {
    // A JSON round trip drops undefined fields and functions, and refuses cycles: what a listing can send.
    return JSON.parse(JSON.stringify(value)) as T
  }
  catch (error) {
    return fail(`the definition must be plain JSON (${(error as Error).message})`)
  }
}
