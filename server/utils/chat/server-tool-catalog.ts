import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import { createToolCatalog } from '#shared/tools/rich-definition/tool-catalog'
import type { ToolCatalog } from '#shared/tools/rich-definition/tool-catalog'
import { toServerRichDefinition } from './server-tool-info'
import { listStaticTools } from './static-tool-registry'
import { listServerTools } from './tool-registry'

/** Every tool the server knows as a rich definition: its registered tools, then the static ones no tool shadows. */
export function listServerRichDefinitions(): RichToolDefinition[] {
  const tools = listServerTools()
  const names = new Set(tools.map(tool => tool.name))
  // a registered tool wins over a static definition of the same name: it can run
  return [...tools.map(toServerRichDefinition), ...listStaticTools().filter(definition => !names.has(definition.toolId))]
}

/**
 * Design 003's ToolRegistry on the server: `serverToolCatalog.getAll()`, `getById(toolId)`, `findByCommand(command)`,
 * `findByDisplayName(name)`, `getCategories()`, `validate()`, always over the current registrations.
 */
export const serverToolCatalog: ToolCatalog = createToolCatalog(listServerRichDefinitions)
