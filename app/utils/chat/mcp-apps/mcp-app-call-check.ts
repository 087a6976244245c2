import { visibleToApp } from '#shared/mcp/apps/mcp-app-tool-ui'
import type { McpToolEntry } from '#shared/mcp/mcp-tool-list'

export type McpAppCallCheck =
  | { ok: true, tool: McpToolEntry }
  | { ok: false, message: string }

/**
 * Whether an app may call `mcpName` (a `tools/call` from its frame): only a tool of the app's own server, listed
 * now, whose visibility includes the app (a model-only tool is refused).
 */
export function checkMcpAppToolCall(serverTools: readonly McpToolEntry[], mcpName: unknown): McpAppCallCheck {
  if (typeof mcpName !== 'string' || mcpName.length === 0) return { ok: false, message: 'The app asked for a tool without a name.' }
  const tool = serverTools.find(entry => entry.mcpName === mcpName)
  if (!tool) return { ok: false, message: `The app may not call ${JSON.stringify(mcpName.slice(0, 80))}: its server lists no such tool.` }
  if (!visibleToApp(tool.ui)) return { ok: false, message: `The app may not call ${mcpName}: the server made it visible to the model only.` }
  return { ok: true, tool }
}
