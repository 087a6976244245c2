import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import type { ServerToolList } from '#shared/types/server-tools'
import { normalizeCommandName, toRichToolDefinition } from '#shared/tools/rich-definition/to-rich-tool-definition'
import { COMMAND_PATTERN } from '#shared/tools/rich-definition/validate-rich-definitions'
import type { RegisteredTool } from '../registry/tool-registry-types'

/**
 * Every tool of the catalog page and slash commands: the browser registry's tools (plugins/, server-only tools it
 * added, tools registered at run time), with the runtime the server reports for them, then what only the server
 * lists (static definitions of NUXT_TOOL_REGISTRY_FILE; later MCP tools), which have no handler here.
 */
export function buildBrowserCatalog(tools: readonly RegisteredTool[], server?: ServerToolList): RichToolDefinition[] {
  const serverInfo = new Map((server?.tools ?? []).map(info => [info.name, info]))
  const definitions = tools.map((tool) => {
    const runtime = serverInfo.get(tool.name)?.runtime ?? 'client'
    return toRichToolDefinition(tool.definition, {
      service: runtime === 'server' ? 'server' : 'browser',
      label: tool.label,
      category: tool.category,
      icon: tool.icon,
      runtime,
      timeoutMs: tool.timeoutMs,
      catalog: tool.catalog,
    })
  })
  // A tool that declares no command (an MCP server's, one written in the app) is run by its own name, `/name`,
  // when that is a valid command nobody declared.
  const taken = new Set(definitions.flatMap(definition => definition.commandName ? [normalizeCommandName(definition.commandName)] : []))
  for (const definition of definitions) {
    if (definition.commandName) continue
    const command = normalizeCommandName(definition.toolId)
    if (!COMMAND_PATTERN.test(command) || taken.has(command)) continue
    taken.add(command)
    definition.commandName = command
  }
  const known = new Set(definitions.map(definition => definition.toolId))
  for (const entry of server?.catalog ?? []) {
    if (!known.has(entry.toolId) && entry.metadata?.static === true) definitions.push(entry)
  }
  return definitions
}

let serverList: Promise<ServerToolList | undefined> | undefined

/** `GET /api/tools` once per page load; undefined when the server cannot be asked (the browser's tools still list). */
export function fetchServerCatalog(fetcher: typeof fetch = globalThis.fetch): Promise<ServerToolList | undefined> {
  return (serverList ??= fetcher('/api/tools', { headers: { accept: 'application/json' } })
    .then(response => (response.ok ? response.json() as Promise<ServerToolList> : undefined))
    .catch(() => undefined))
}
