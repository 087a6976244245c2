import type { ServerToolList } from '#shared/types/server-tools'
import { toServerToolInfo } from '../../utils/chat/server-tool-info'
import { listServerTools } from '../../utils/chat/tool-registry'

/** GET /api/tools: the server's tools with their metadata and runtime, for the composer's popover. */
export default defineEventHandler((): ServerToolList => ({ tools: listServerTools().map(toServerToolInfo) }))
