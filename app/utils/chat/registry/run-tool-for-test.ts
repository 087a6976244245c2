import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import type { ToolHandler, ToolResult } from '#shared/tools/tool-types'
import { createToolRegistry } from '../tool-registry'
import type { RegisterableToolDefinition } from './tool-registry-types'
import type { ToolArgumentsOf } from '#shared/tools/definition/typed-tool-definition'

export interface RunToolForTestOptions {
  /** The chat the call belongs to, as the handler's `context.threadId` and the availability check see it. @default 'test-thread' */
  threadId?: string
  /** The model's call id (`context.callId`). @default 'call_test' */
  callId?: string
  /** Abort it to test Stop: the handler's `context.signal` aborts and the result is 'cancelled'. */
  signal?: AbortSignal
  /** Results longer than this are cut for the model, as in a chat. @default 32_768 */
  maxResultChars?: number
}

/** A tool run's result as the model would see it, plus the progress texts the handler reported. */
export type ToolTestResult = ToolResult & { statuses: string[] }

/**
 * Runs one call of a tool the way a chat does: the definition is checked and registered (in a registry of its
 * own, nothing saved), its availability is asked, the arguments are parsed and validated against `parameters`,
 * the handler runs with a real context under its timeout, and the return value is serialised and cut like a
 * real result. A tool's fault never throws: it is a result with `status: 'error'` and the summary the model would
 * get. `args` may be an object or the raw JSON text a model wrote. A `sandbox: 'worker'` tool runs on the page here.
 * @throws InvalidToolDefinitionError when the definition is invalid, as `registerTool` would
 */
export async function runToolForTest<D extends RegisterableToolDefinition>(
  definition: D,
  handler: ToolHandler<ToolArgumentsOf<D>>,
  args: ToolArgumentsOf<D> | string = {} as ToolArgumentsOf<D>,
  options: RunToolForTestOptions = {},
): Promise<ToolTestResult> {
  const { threadId = 'test-thread', callId = 'call_test', signal, maxResultChars } = options
  const registry = createToolRegistry()
  registry.registerTool({ ...definition, sandbox: undefined }, handler, { enabled: true })
  const tools = await registry.getToolSet({ threadId, signal })
  const statuses: string[] = []
  const [result] = await executeToolCalls([{
    id: callId,
    type: 'function',
    function: { name: definition.function.name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  }], tools, { threadId, signal, maxResultChars, onStatus: (_id, text) => statuses.push(text) })
  return { ...result!, statuses }
}
