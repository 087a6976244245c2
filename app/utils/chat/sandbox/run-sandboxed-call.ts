import type { ToolExecutionContext } from '#shared/tools/tool-types'
import { isToolPlugin } from '#shared/tools/definition/define-tool'
import type { ToolPlugin } from '#shared/tools/definition/define-tool'
import type { SandboxResponse, SandboxRunRequest } from './sandbox-messages'

/** What `import.meta.glob('…/plugins/*.ts')` returns: path → lazy import. */
export type PluginModules = Record<string, () => Promise<unknown>>

/**
 * Runs one call inside a sandbox worker: loads the plugin file named in the request from `modules`, runs its
 * handler with the arguments and a minimal context, and reports through `post`: `status` messages while it
 * runs, then one `result` or `error`. Never throws.
 */
export async function runSandboxedCall(
  request: SandboxRunRequest,
  modules: PluginModules,
  post: (message: SandboxResponse) => void,
): Promise<void> {
  let value: unknown
  try {
    const plugin = await findSandboxedPlugin(request, modules)
    const context: ToolExecutionContext = {
      // Never aborted: on timeout or Stop the page terminates the whole worker, which also ends any fetch.
      signal: new AbortController().signal,
      threadId: request.threadId,
      callId: request.callId,
      status: text => post({ type: 'status', text: String(text) }),
      settings: request.settings ?? {},
    }
    value = await plugin.handler(request.args, context)
  }
  catch (error) {
    post(errorMessage(error))
    return
  }
  try {
    post({ type: 'result', value })
  }
  catch (error) {
    // postMessage throws DataCloneError for functions, symbols, class instances with private state...
    post({ type: 'error', name: 'DataCloneError', message: `returned a value that cannot leave its Web Worker (${(error as Error).message}). Return a string or plain JSON.` })
  }
}

async function findSandboxedPlugin(request: SandboxRunRequest, modules: PluginModules): Promise<ToolPlugin> {
  const path = Object.keys(modules).find(key => key.split('/').pop() === request.file)
  if (!path) throw new Error(`plugins/${request.file} is not in the sandbox worker's build`)
  const plugin = ((await modules[path]!()) as { default?: unknown } | null)?.default
  if (!isToolPlugin(plugin) || plugin.definition.function.name !== request.toolName) {
    throw new Error(`plugins/${request.file} does not define the tool "${request.toolName}"`)
  }
  // Only tools that asked for the sandbox run here: others may rely on the page (DOM, localStorage).
  if (plugin.definition.sandbox !== 'worker') {
    throw new Error(`plugins/${request.file} does not declare sandbox: 'worker'`)
  }
  return plugin
}

function errorMessage(error: unknown): SandboxResponse {
  if (error instanceof Error) return { type: 'error', name: error.name, message: error.message }
  let message: string
  try {
    message = typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error))
  }
  catch {
    message = String(error)
  }
  return { type: 'error', name: 'Error', message }
}
