/**
 * The server's tool registry (design 002): tools that server code runs, for the browser's execute route and later
 * for chats and workflows running on the server. Separate from the browser's Vue registry; it runs every call
 * through the same executor and argument validator as the browser (shared/tools), never a copy of them.
 */
import { randomUUID } from 'node:crypto'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool, ToolHandler, ToolResult } from '#shared/tools/tool-types'
import type { ServerToolDefinition, ServerToolExecution, ServerToolInfo, ToolRuntime } from '#shared/types/server-tools'
import { DuplicateServerToolError } from './errors/duplicate-server-tool-error'
import { normalizeServerToolDefinition, resolveRuntime, resolveTimeoutMs } from './server-tool-definition'

/** Options of `registerServerTool`. */
export interface RegisterServerToolOptions {
  /** Where the tool may run. @default definition.runtime ?? 'hybrid' */
  runtime?: ToolRuntime
  /** Handler timeout; lowered to 120 000 at most. @default definition.timeoutMs ?? 10_000 */
  timeoutMs?: number
  /** Replace a tool of the same name. @default false */
  override?: boolean
}

/** One registered server tool. */
export interface ServerTool extends ServerToolInfo {
  handler: ToolHandler
  /** What the shared executor runs: the model-facing definition, the handler and the timeout. */
  executable: ExecutableTool
}

/** Options of `executeServerTool` beyond the design's two arguments. */
export interface ExecuteServerToolOptions {
  /** Aborts the handler (the browser went away, a job was stopped); the call then ends as cancelled. */
  signal?: AbortSignal
  /** Given to the handler's context. @default 'server' */
  threadId?: string
}

/** Largest result returned, in characters; longer ones are cut with a note so the model knows. */
export const MAX_SERVER_TOOL_RESULT_CHARS = 32_768

const tools = new Map<string, ServerTool>()

/**
 * Register a server tool. The handler gets the validated arguments and a context whose `signal` aborts at the
 * timeout; it returns a string or a JSON value. Returns a function that unregisters this registration.
 * @throws DuplicateServerToolError when the name is taken and `override` is not set
 * @throws TypeError when the definition, the handler, the runtime or the timeout is invalid
 */
export function registerServerTool(definition: ServerToolDefinition, handler: ToolHandler, options: RegisterServerToolOptions = {}): () => void {
  const normalized = normalizeServerToolDefinition(definition)
  const { name } = normalized
  if (typeof handler !== 'function') throw new TypeError(`Server tool "${name}": the handler must be a function (got ${typeof handler})`)
  if (tools.has(name) && !options.override) throw new DuplicateServerToolError(name)
  const runtime = resolveRuntime(options.runtime, normalized.definition)
  const timeoutMs = resolveTimeoutMs(name, options.timeoutMs ?? definition.timeoutMs)
  const tool: ServerTool = {
    name,
    definition: { ...normalized.definition, runtime, timeoutMs },
    runtime,
    timeoutMs,
    actsOutsideApp: normalized.definition.actsOutsideApp === true,
    handler,
    executable: { definition: normalized.modelDefinition, handler, timeoutMs },
  }
  tools.set(name, tool)
  return () => {
    // a later override owns the name now: leave it alone
    if (tools.get(name) === tool) tools.delete(name)
  }
}

/** Remove a server tool. Returns true when one was removed. */
export function unregisterServerTool(name: string): boolean {
  return tools.delete(name)
}

/** The registered tool of that name, if any. */
export function getServerTool(name: string): ServerTool | undefined {
  return tools.get(name)
}

/** Every registered server tool, in registration order (an override keeps the original position). */
export function listServerTools(): ServerTool[] {
  return [...tools.values()]
}

/**
 * Run one server tool with the arguments text a model wrote. Never throws for the tool's fault: a missing tool,
 * a client-only tool, invalid JSON or arguments, a throw and the timeout all come back as `error` (with
 * `timedOut: true` for the timeout); a result over the size cap is cut with a note.
 */
export async function executeServerTool(toolName: string, argsJson: string, options: ExecuteServerToolOptions = {}): Promise<ServerToolExecution> {
  const tool = tools.get(toolName)
  if (!tool) return { result: null, toolName, timedOut: false, error: `Tool "${toolName}" is not registered on server.` }
  const { runtime } = tool
  if (runtime === 'client') {
    return { result: null, toolName, timedOut: false, runtime, error: `Tool "${toolName}" runs only in the browser (runtime "client"); the server does not run it.` }
  }
  const call = { id: `server_${randomUUID()}`, type: 'function' as const, function: { name: toolName, arguments: String(argsJson ?? '') } }
  const [outcome] = await executeToolCalls([call], toolSetFromArray([tool.executable]), {
    threadId: options.threadId ?? 'server',
    signal: options.signal,
    defaultTimeoutMs: tool.timeoutMs,
    maxResultChars: MAX_SERVER_TOOL_RESULT_CHARS,
  })
  return toExecution(outcome!, runtime)
}

function toExecution(outcome: ToolResult, runtime: ToolRuntime): ServerToolExecution {
  const base = { toolName: outcome.name, runtime }
  if (outcome.status === 'done') return { ...base, result: outcome.content, timedOut: false }
  return { ...base, result: null, timedOut: outcome.error?.kind === 'timeout', error: outcome.error?.message ?? outcome.content }
}
