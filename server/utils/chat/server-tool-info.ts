import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import type { ServerToolInfo } from '#shared/types/server-tools'
import { toRichToolDefinition } from '#shared/tools/rich-definition/to-rich-tool-definition'
import type { ServerTool } from './tool-registry'

/** What the browser may know of a server tool: its definition and limits, never its handler. */
export function toServerToolInfo(tool: ServerTool): ServerToolInfo {
  return { name: tool.name, definition: tool.definition, runtime: tool.runtime, timeoutMs: tool.timeoutMs, actsOutsideApp: tool.actsOutsideApp }
}

/** A server tool as the catalog's rich definition (design 003): OpenAI definition + metadata. */
export function toServerRichDefinition(tool: ServerTool): RichToolDefinition {
  const { definition } = tool
  return toRichToolDefinition(tool.executable.definition, {
    service: tool.runtime === 'server' ? 'server' : 'browser',
    label: definition.ui?.label,
    category: definition.ui?.category ?? definition.category,
    icon: definition.ui?.icon ?? definition.icon,
    runtime: tool.runtime,
    timeoutMs: tool.timeoutMs,
    catalog: definition.catalog,
  })
}
