/**
 * An MCP server's resources from the composer: one slash command per connected server that lists resources
 * (`/server__resource <uri>`), whose `uri` input offers the server's resources (listed once, on the first look at
 * the slash list); running it reads the resource and attaches it to the message being written, as a document whose
 * text travels inline under its URI (`attachment-content.ts`). A tool's command of the same name wins. Loaded with
 * the slash list.
 */
import { shallowRef } from 'vue'
import type { McpResourceEntry } from '#shared/mcp/mcp-resources'
import { mcpServerPrefix } from '#shared/mcp/mcp-tool-name'
import { normalizeCommandName, toRichToolDefinition } from '#shared/tools/rich-definition/to-rich-tool-definition'
import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import { attachMcpResource, listMcpResources } from './mcp-resource-attachments'
import type { McpServerManager } from './mcp-server-manager'

/** The caller's translation (`useI18n().t`): the commands' words come from the catalogs' `mcp.resourceCommand`. */
export type ResourceCommandText = (key: string, values?: Record<string, unknown>) => string

/** The key of a resource command's metadata: `{ serverId }`. */
export const MCP_RESOURCE_METADATA_KEY = 'mcpResource'

/** Each server's listed resources, by server id (reactive: the command's choices appear once listed). */
const listed = shallowRef<ReadonlyMap<string, readonly McpResourceEntry[]>>(new Map())
const listing = new Set<string>()

function listOnce(manager: Pick<McpServerManager, 'connectionOf'>, serverId: string) {
  if (listing.has(serverId)) return
  listing.add(serverId)
  listMcpResources(manager, serverId)
    .then(entries => (listed.value = new Map([...listed.value, [serverId, entries]])))
    // a listing that failed is tried again on the next look; the command still takes a typed URI
    .catch(() => {})
    .finally(() => listing.delete(serverId))
}

/** The resource command a catalog entry is, if it is one. */
export function mcpResourceOf(definition: RichToolDefinition): { serverId: string } | undefined {
  const target = definition.metadata?.[MCP_RESOURCE_METADATA_KEY] as { serverId?: unknown } | undefined
  return target && typeof target.serverId === 'string' ? { serverId: target.serverId } : undefined
}

/** The connected servers' resource commands, leaving out commands `taken` by tools. */
export function mcpResourceCommands(manager: Pick<McpServerManager, 'servers' | 'connectionOf'>, taken: ReadonlySet<string>, t: ResourceCommandText): RichToolDefinition[] {
  const commands: RichToolDefinition[] = []
  for (const server of manager.servers.value) {
    if (!server.hasResources) continue
    const name = `${mcpServerPrefix(server.name)}__resource`
    const command = normalizeCommandName(name)
    if (taken.has(command)) continue
    const entries = listed.value.get(server.id)
    if (!entries) listOnce(manager, server.id)
    const uris = entries?.map(entry => entry.uri) ?? []
    const parameters = { type: 'object' as const, properties: { uri: { type: 'string', description: t('mcp.resourceCommand.uri'), ...(uris.length > 0 && { enum: uris }) } }, required: ['uri'] }
    const definition = toRichToolDefinition(
      { type: 'function', function: { name, description: t('mcp.resourceCommand.description', { server: server.name }), parameters } },
      { service: 'browser', label: t('mcp.resourceCommand.label', { server: server.name }), category: server.name, icon: 'i-lucide-file-text', runtime: 'client' },
    )
    commands.push({ ...definition, commandName: command, metadata: { ...definition.metadata, [MCP_RESOURCE_METADATA_KEY]: { serverId: server.id } } })
  }
  return commands
}

/**
 * Reads the resource `uri` of the server and attaches it to the message being written.
 * @throws Error with a message for the user (the server is gone or refuses, the resource has no text)
 */
export async function attachMcpResourceByUri(manager: Pick<McpServerManager, 'connectionOf'>, serverId: string, uri: string, t: ResourceCommandText): Promise<File> {
  if (!manager.connectionOf(serverId)) throw new Error(t('mcp.resourceCommand.gone'))
  const entry = listed.value.get(serverId)?.find(item => item.uri === uri)
  const label = entry?.label ?? (uri.split(/[/:]/).filter(Boolean).at(-1) || uri).slice(0, 120)
  return attachMcpResource(manager, serverId, entry ?? { uri, label })
}
