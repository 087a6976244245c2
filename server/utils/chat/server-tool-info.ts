import type { ServerToolInfo } from '#shared/types/server-tools'
import type { ServerTool } from './tool-registry'

/** What the browser may know of a server tool: its definition and limits, never its handler. */
export function toServerToolInfo(tool: ServerTool): ServerToolInfo {
  return { name: tool.name, definition: tool.definition, runtime: tool.runtime, timeoutMs: tool.timeoutMs, actsOutsideApp: tool.actsOutsideApp }
}
