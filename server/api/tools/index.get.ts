import type { ServerToolList } from '#shared/types/server-tools'
import { toServerRichDefinition, toServerToolInfo } from '../../utils/chat/server-tool-info'
import { listStaticTools } from '../../utils/chat/static-tool-registry'
import { listServerTools } from '../../utils/chat/tool-registry'

/**
 * GET /api/tools: the server's tools with their metadata and runtime, for the composer's popover, and the catalog
 * (design 003): every server tool as a rich definition, then the static ones of NUXT_TOOL_REGISTRY_FILE, which are
 * listed but have no handler, so `tools` (what can run) never holds them.
 */
export default defineEventHandler((): ServerToolList => {
  const tools = listServerTools()
  const names = new Set(tools.map(tool => tool.name))
  // a registered tool wins over a static definition of the same name: it can run
  const statics = listStaticTools().filter(definition => !names.has(definition.toolId))
  return { tools: tools.map(toServerToolInfo), catalog: [...tools.map(toServerRichDefinition), ...statics] }
})
