import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import type { ServerToolList } from '#shared/types/server-tools'
import { toRichToolDefinition } from '#shared/tools/rich-definition/to-rich-tool-definition'
import type { RegisteredTool } from '../tool-registry-types'

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
