import { getMcpServerManager } from '~/utils/chat/mcp/mcp-server-manager-singleton'

/** The MCP servers of Settings: `servers` (reactive views with status, sign-in and tools), `add`, `remove`, `retry`, `signIn`, `signOut`. */
export function useMcpServers() {
  const { servers, add, remove, retry, signIn, signOut } = getMcpServerManager()
  return { servers, add, remove, retry, signIn, signOut }
}
