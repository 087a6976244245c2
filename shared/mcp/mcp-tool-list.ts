import { isRecord } from '../types/is-record'
import type { JsonSchemaObject } from '../types/chat'
import { MAX_MCP_DESCRIPTION_CHARS, MAX_MCP_SCHEMA_CHARS, MAX_MCP_SCHEMA_DEPTH, MAX_MCP_TOOLS } from './mcp-limits'
import { mcpToolName } from './mcp-tool-name'
import { readMcpAppToolUi } from './apps/mcp-app-tool-ui'
import type { McpAppToolUi } from './apps/mcp-app-tool-ui'
import type { CodedText } from '../errors/coded-text'
import { mcpText } from './mcp-messages'

/** One MCP tool, checked, as a registry will hold it. */
export interface McpToolEntry {
  /** The registry name (`server__tool`). */
  name: string
  /** The name the server knows it by: what `tools/call` sends. */
  mcpName: string
  title?: string
  description?: string
  parameters: JsonSchemaObject
  /** `_meta.ui` (MCP Apps): the interface the tool brings and who may call it. */
  ui?: McpAppToolUi
}

/** A tool the server listed that the app does not offer, and why. */
export interface SkippedMcpTool {
  name: string
  reason: string
}

export interface CheckedMcpTools {
  tools: McpToolEntry[]
  skipped: SkippedMcpTool[]
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_MCP_SCHEMA_DEPTH || typeof value !== 'object' || value === null) return depth
  let deepest = depth
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, depth + 1))
  return deepest
}

/** Why an input schema is refused, or undefined when it may be offered. */
export function mcpSchemaProblem(schema: unknown): string | undefined {
  if (!isRecord(schema)) return 'its input schema is not an object'
  if (schema.type !== 'object') return `its input schema is not { "type": "object" } (type ${JSON.stringify(schema.type ?? null)})`
  let json: string
  try {
    json = JSON.stringify(schema)
  }
  catch {
    return 'its input schema is not plain JSON'
  }
  if (json.length > MAX_MCP_SCHEMA_CHARS) return `its input schema is ${Math.round(json.length / 1024)} KB (at most ${MAX_MCP_SCHEMA_CHARS / 1024} KB)`
  if (depthOf(schema) > MAX_MCP_SCHEMA_DEPTH) return `its input schema is nested deeper than ${MAX_MCP_SCHEMA_DEPTH} levels`
  return undefined
}

/** A name for messages: the server's, cut and made printable. */
function shown(name: unknown): string {
  const text = typeof name === 'string' ? name : String(name)
  const printable = text.replace(/[^\x20-\x7E]/g, '?')
  return printable.length > 40 ? `${printable.slice(0, 39)}…` : printable || '(empty)'
}

/**
 * The tools of one server's listing that the app may offer, named `prefix__tool` and unique among `taken` (the
 * registry's other names), and the ones it skips with the reason: no usable name, a schema that is not an object,
 * too large or too deep, or past the first MAX_MCP_TOOLS. Descriptions are cut to MAX_MCP_DESCRIPTION_CHARS.
 * Never throws; never keeps a reference to the server's objects (schemas are copied).
 */
export function checkMcpTools(listed: readonly unknown[], prefix: string, taken: ReadonlySet<string> = new Set()): CheckedMcpTools {
  const tools: McpToolEntry[] = []
  const skipped: SkippedMcpTool[] = []
  const names = new Set(taken)
  const seen = new Set<string>()
  for (const item of listed) {
    const tool = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>
    const mcpName = tool.name
    if (typeof mcpName !== 'string' || mcpName.length === 0 || mcpName.length > 128 || !/^[\x20-\x7E]+$/.test(mcpName) || mcpName.trim() === '') {
      skipped.push({ name: shown(mcpName), reason: 'its name is empty, longer than 128 characters or not printable ASCII' })
      continue
    }
    if (seen.has(mcpName)) {
      skipped.push({ name: shown(mcpName), reason: 'the server listed this name twice' })
      continue
    }
    seen.add(mcpName)
    const problem = mcpSchemaProblem(tool.inputSchema)
    if (problem) {
      skipped.push({ name: shown(mcpName), reason: problem })
      continue
    }
    if (tools.length >= MAX_MCP_TOOLS) {
      skipped.push({ name: shown(mcpName), reason: `the app takes the first ${MAX_MCP_TOOLS} tools of a server` })
      continue
    }
    const name = mcpToolName(prefix, mcpName, names)
    names.add(name)
    const description = typeof tool.description === 'string' ? tool.description.slice(0, MAX_MCP_DESCRIPTION_CHARS) : undefined
    const title = typeof tool.title === 'string' ? tool.title.slice(0, 80) : undefined
    const ui = readMcpAppToolUi(tool)
    tools.push({ name, mcpName, title, description, parameters: JSON.parse(JSON.stringify(tool.inputSchema)) as JsonSchemaObject, ...(ui && { ui }) })
  }
  return { tools, skipped }
}

/** One coded line for the user about skipped tools (the first few named), or undefined when none was skipped. */
export function skippedToolsText(skipped: readonly SkippedMcpTool[]): CodedText | undefined {
  if (skipped.length === 0) return undefined
  const named = skipped.slice(0, 3).map(item => `${item.name} (${item.reason})`).join('; ')
  if (skipped.length > 3) return mcpText('mcp.toolsSkippedMore', { count: skipped.length, named, more: skipped.length - 3 })
  return skipped.length === 1 ? mcpText('mcp.toolSkipped', { named }) : mcpText('mcp.toolsSkipped', { count: skipped.length, named })
}

/** The skipped tools' line as a connection's status message (`message` and its coded `messageText`), or none. */
export function skippedToolsNote(skipped: readonly SkippedMcpTool[]): { message: string | undefined, messageText: CodedText[] | undefined } {
  const text = skippedToolsText(skipped)
  return { message: text?.message, messageText: text && [text] }
}

/** One line for the user about skipped tools (the first few named), or '' when none was skipped. */
export function describeSkippedTools(skipped: readonly SkippedMcpTool[]): string {
  return skippedToolsText(skipped)?.message ?? ''
}
