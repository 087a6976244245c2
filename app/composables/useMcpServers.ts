import { getMcpServerManager } from '~/utils/chat/mcp/mcp-server-manager-singleton'

/** The MCP servers of Settings: `servers` (reactive views with status and tools), `add`, `remove`, `retry`. */
export function useMcpServers() {
  const { servers, add, remove, retry } = getMcpServerManager()
  return { servers, add, remove, retry }
}
