import { isRecord } from '../../types/is-record'

/** Who may see a tool (MCP Apps): the model, the app's own interface, or both. */
export type McpAppVisibility = 'model' | 'app'

/** What a tool's `_meta.ui` says, checked: the interface it brings and who may call it. */
export interface McpAppToolUi {
  /** The `ui://` HTML resource the host renders for the tool's calls. */
  resourceUri?: string
  /** @default ['model', 'app'] */
  visibility: McpAppVisibility[]
}

/** Longest `ui://` URI kept: a URI is a name, not a payload. */
const MAX_RESOURCE_URI_CHARS = 512

/**
 * A tool's `_meta.ui` (and the older flat `_meta["ui/resourceUri"]`) as the host reads it, or undefined when the
 * tool declares none. A URI that is not `ui://…` or too long is ignored, unknown visibility values are dropped, and
 * a list left empty means the default (both), as the extension says.
 */
export function readMcpAppToolUi(tool: unknown): McpAppToolUi | undefined {
  const meta = isRecord(tool) && isRecord(tool._meta) ? tool._meta : undefined
  if (!meta) return undefined
  const ui = isRecord(meta.ui) ? meta.ui : undefined
  const uri = ui?.resourceUri ?? meta['ui/resourceUri']
  const resourceUri = typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= MAX_RESOURCE_URI_CHARS ? uri : undefined
  const listed = Array.isArray(ui?.visibility) ? ui.visibility.filter((item): item is McpAppVisibility => item === 'model' || item === 'app') : []
  if (!resourceUri && !ui) return undefined
  return { ...(resourceUri && { resourceUri }), visibility: listed.length > 0 ? [...new Set(listed)] : ['model', 'app'] }
}

/** Whether the model is offered the tool (an app-only tool is for its interface alone). */
export function visibleToModel(ui: McpAppToolUi | undefined): boolean {
  return !ui || ui.visibility.includes('model')
}

/** Whether an app's interface may call the tool. */
export function visibleToApp(ui: McpAppToolUi | undefined): boolean {
  return !ui || ui.visibility.includes('app')
}
