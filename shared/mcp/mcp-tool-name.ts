/**
 * Names of MCP tools in a tool registry: `<server>__<tool>`, within OpenAI's rule (`^[a-zA-Z0-9_-]{1,64}$`), so
 * two servers' `search` tools never meet and the model reads where each tool comes from.
 */

/** OpenAI's rule for function names. */
export const OPENAI_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/
/** Longest server prefix: leaves the tool's own name at least 40 characters. */
const MAX_PREFIX_CHARS = 20
const MAX_NAME_CHARS = 64

/** A server's name as a name prefix: letters, digits, `_` and `-`, others as `_`, at most 20 characters. */
export function mcpServerPrefix(serverName: string): string {
  const cleaned = serverName.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, MAX_PREFIX_CHARS)
  return cleaned || 'mcp'
}

/**
 * The registry name of `toolName` from the server with `prefix`, unique among `taken`: the tool's name cleaned
 * the same way, cut so the whole fits in 64 characters, and numbered (`_2`, `_3`...) when another tool has it.
 */
export function mcpToolName(prefix: string, toolName: string, taken: ReadonlySet<string> = new Set()): string {
  const base = `${prefix}__${toolName.replace(/[^a-zA-Z0-9_-]+/g, '_')}`.slice(0, MAX_NAME_CHARS)
  if (!taken.has(base)) return base
  for (let counter = 2; ; counter++) {
    const suffix = `_${counter}`
    const candidate = `${base.slice(0, MAX_NAME_CHARS - suffix.length)}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}
