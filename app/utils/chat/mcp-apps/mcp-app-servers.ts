/**
 * The browser's MCP servers as their apps reach them: by the server's name (an app row keeps the name, so an app
 * shown after a reload finds its server again when it is connected), and each app's `ui://` resource, read once
 * per server and URI.
 */
import type { McpConnection } from '#shared/mcp/mcp-connection'
import { readMcpAppResource } from '#shared/mcp/apps/mcp-app-resource'
import type { McpAppResource } from '#shared/mcp/apps/mcp-app-resource'

export interface McpAppServer {
  name: string
  connection: McpConnection
}

const servers = new Map<string, McpAppServer>()
const resources = new Map<string, Promise<McpAppResource>>()

export function setMcpAppServer(server: McpAppServer): void {
  servers.set(server.name, server)
  for (const key of resources.keys()) if (key.startsWith(`${server.name}\n`)) resources.delete(key)
}

export function removeMcpAppServer(name: string): void {
  servers.delete(name)
}

/** The connected server of that name, or undefined (removed, or not connected now). */
export function connectedMcpAppServer(name: string): McpAppServer | undefined {
  const server = servers.get(name)
  return server?.connection.state.status === 'connected' ? server : undefined
}

/** The app's HTML resource, read through the server's connection once (a failure is not kept: the next call tries again). */
export function loadMcpAppResource(server: McpAppServer, uri: string): Promise<McpAppResource> {
  const key = `${server.name}\n${uri}`
  let loading = resources.get(key)
  if (!loading) {
    loading = server.connection.readResource(uri).then(result => readMcpAppResource(result, uri))
    loading.catch(() => resources.delete(key))
    resources.set(key, loading)
  }
  return loading
}
