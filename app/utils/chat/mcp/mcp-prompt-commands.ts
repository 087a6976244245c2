/**
 * The prompts of the browser's MCP servers as slash commands (`/server__prompt`): entries for the composer's slash
 * list, their arguments through the command arguments form, and the run, which gets the prompt's messages
 * (`prompts/get`) as the text the user sends. A tool's command of the same name wins. Loaded with the slash list.
 */
import { readMcpPromptMessages } from '#shared/mcp/mcp-prompts'
import { normalizeCommandName, toRichToolDefinition } from '#shared/tools/rich-definition/to-rich-tool-definition'
import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import type { McpServerManager } from './mcp-server-manager'

/** The key of a prompt command's metadata: `{ serverId, mcpName }`. */
export const MCP_PROMPT_METADATA_KEY = 'mcpPrompt'

interface PromptTarget {
  serverId: string
  mcpName: string
}

/** The prompt a catalog entry runs, if it is one. */
export function mcpPromptOf(definition: RichToolDefinition): PromptTarget | undefined {
  const target = definition.metadata?.[MCP_PROMPT_METADATA_KEY] as PromptTarget | undefined
  return target && typeof target.serverId === 'string' && typeof target.mcpName === 'string' ? target : undefined
}

/** The connected servers' prompts as catalog entries, leaving out commands `taken` by tools. */
export function mcpPromptCommands(manager: Pick<McpServerManager, 'servers'>, taken: ReadonlySet<string>): RichToolDefinition[] {
  const commands: RichToolDefinition[] = []
  for (const server of manager.servers.value) {
    for (const prompt of server.prompts) {
      const command = normalizeCommandName(prompt.name)
      if (taken.has(command)) continue
      const definition = toRichToolDefinition(
        { type: 'function', function: { name: prompt.name, description: prompt.description, parameters: prompt.parameters } },
        { service: 'browser', label: prompt.title ?? prompt.mcpName, category: server.name, icon: 'i-lucide-message-square-text', runtime: 'client' },
      )
      commands.push({ ...definition, commandName: command, metadata: { ...definition.metadata, [MCP_PROMPT_METADATA_KEY]: { serverId: server.id, mcpName: prompt.mcpName } } })
    }
  }
  return commands
}

/**
 * The text a prompt command sends: `prompts/get` with the arguments as strings.
 * @throws Error with a message for the user when the server is gone, refuses, or the prompt has no text
 */
export async function mcpPromptText(manager: Pick<McpServerManager, 'connectionOf'>, target: PromptTarget, args: Record<string, unknown>): Promise<string> {
  const connection = manager.connectionOf(target.serverId)
  if (!connection) throw new Error('Its MCP server is no longer in Settings.')
  const strings = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && value !== '').map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]))
  const text = readMcpPromptMessages(await connection.getPrompt(target.mcpName, strings))
  if (!text.trim()) throw new Error('The server\'s prompt has no text.')
  return text
}
