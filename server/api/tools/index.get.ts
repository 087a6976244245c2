import type { ServerToolList } from '#shared/types/server-tools'
import { serverToolCatalog } from '../../utils/chat/server-tool-catalog'
import { toServerToolInfo } from '../../utils/chat/server-tool-info'
import { listServerTools } from '../../utils/chat/tool-registry'

/**
 * GET /api/tools: the server's tools with their metadata and runtime, for the composer's popover, and the catalog
 * (design 003): every server tool as a rich definition, then the static ones of NUXT_TOOL_REGISTRY_FILE, which are
 * listed but have no handler, so `tools` (what can run) never holds them.
 */
export default defineEventHandler((): ServerToolList => ({ tools: listServerTools().map(toServerToolInfo), catalog: serverToolCatalog.getAll() }))
