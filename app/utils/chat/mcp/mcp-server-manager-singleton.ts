import { getToolRegistry, isServerEnvironment } from '../registry/tool-registry-singleton'
import { createMcpServerManager } from './mcp-server-manager'
import type { McpServerManager } from './mcp-server-manager'

const MANAGER_KEY = Symbol.for('plugboard.mcpServers')

type GlobalWithManager = typeof globalThis & { [MANAGER_KEY]?: McpServerManager }

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage
  }
  catch {
    return null
  }
}

/** The app's MCP servers (client only; on the server a manager with no storage that never connects). */
export function getMcpServerManager(): McpServerManager {
  const holder = globalThis as GlobalWithManager
  if (isServerEnvironment()) return createMcpServerManager({ registry: getToolRegistry(), storage: null })
  return (holder[MANAGER_KEY] ??= createMcpServerManager({ registry: getToolRegistry(), storage: safeLocalStorage() }))
}
