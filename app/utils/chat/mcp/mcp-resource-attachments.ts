/**
 * A server's resources for the picker in Settings → MCP servers: listed, and read into a text file that is handed to
 * the composer's attachments (`mcp-resource-handoff.ts`).
 */
import { checkMcpResources, readMcpResourceText } from '#shared/mcp/mcp-resources'
import type { McpResourceEntry } from '#shared/mcp/mcp-resources'
import { handMcpResourceFile } from './mcp-resource-handoff'
import type { McpServerManager } from './mcp-server-manager'

/** A server's resources, checked and bounded. */
export async function listMcpResources(manager: Pick<McpServerManager, 'connectionOf'>, serverId: string): Promise<McpResourceEntry[]> {
  const connection = manager.connectionOf(serverId)
  if (!connection) throw new Error('This server is no longer in Settings.')
  return checkMcpResources(await connection.listResources())
}

/**
 * Reads one resource into a text file and hands it to the composer.
 * @throws Error with a message for the user (the server refused, only binary content)
 */
export async function attachMcpResource(manager: Pick<McpServerManager, 'connectionOf'>, serverId: string, entry: McpResourceEntry): Promise<File> {
  const connection = manager.connectionOf(serverId)
  if (!connection) throw new Error('This server is no longer in Settings.')
  const read = readMcpResourceText(entry, await connection.readResource(entry.uri))
  const file = new File([read.text], read.fileName, { type: read.mimeType })
  handMcpResourceFile(file)
  return file
}
