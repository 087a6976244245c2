/**
 * Static tool definitions (design 003's "flash" file): rich definitions read from a JSON file at start-up, listed
 * in `GET /api/tools`' catalog so the catalog page shows them, but never offered to a model or run, since the
 * server has no handler for them.
 */
import { parseJson } from '#shared/security/parse-json'
import { readFile, stat } from 'node:fs/promises'
import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import { formatCatalogProblems, validateRichDefinition } from '#shared/tools/rich-definition/validate-rich-definitions'

/** A registry file larger than this is refused: it is a list of definitions, not data. */
export const MAX_TOOL_REGISTRY_FILE_BYTES = 5 * 1024 * 1024
/** At most this many static tools are kept. */
export const MAX_STATIC_TOOLS = 1_000

/** What `npm run registry:flash` writes. A plain array of rich definitions is accepted too. */
export interface ToolRegistryFile {
  version: 1
  generatedBy?: string
  tools: RichToolDefinition[]
}

let staticTools: RichToolDefinition[] = []

/**
 * Parses a registry file's text: keeps the definitions `validateRichDefinition` finds nothing wrong with (and the
 * first of a duplicated toolId), marks them static, and returns the problems of the others as text.
 */
export function parseToolRegistryFile(text: string): { tools: RichToolDefinition[], problems: string[] } {
  let data: unknown
  try {
    data = parseJson(text)
  }
  catch (error) {
    return { tools: [], problems: [`not valid JSON (${(error as Error).message})`] }
  }
  const list = Array.isArray(data) ? data : (data as Partial<ToolRegistryFile> | null)?.tools
  if (!Array.isArray(list)) return { tools: [], problems: ['expected { "version": 1, "tools": [...] } or an array of tool definitions'] }
  const tools: RichToolDefinition[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  if (list.length > MAX_STATIC_TOOLS) problems.push(`has ${list.length} tools; only the first ${MAX_STATIC_TOOLS} are read`)
  for (const entry of list.slice(0, MAX_STATIC_TOOLS)) {
    const entryProblems = validateRichDefinition(entry)
    if (entryProblems.length > 0) {
      problems.push(formatCatalogProblems(entryProblems))
      continue
    }
    const tool = entry as RichToolDefinition
    if (seen.has(tool.toolId)) {
      problems.push(`${tool.toolId}: toolId is listed twice; the first is kept`)
      continue
    }
    seen.add(tool.toolId)
    tools.push({ ...tool, metadata: { ...tool.metadata, runtime: 'static', static: true } })
  }
  return { tools, problems }
}

/**
 * Loads `file` (NUXT_TOOL_REGISTRY_FILE) as the static tools, replacing those loaded before. A missing, oversized
 * or unreadable file keeps no static tools and says why in the log; the server starts anyway.
 */
export async function loadStaticToolRegistry(file: string): Promise<RichToolDefinition[]> {
  staticTools = []
  if (!file) return staticTools
  try {
    const { size } = await stat(file)
    if (size > MAX_TOOL_REGISTRY_FILE_BYTES) throw new Error(`it is ${size} bytes, more than ${MAX_TOOL_REGISTRY_FILE_BYTES}`)
    const { tools, problems } = parseToolRegistryFile(await readFile(file, 'utf8'))
    for (const problem of problems) console.warn(`[tools] ${file}: ${problem}`)
    staticTools = tools
  }
  catch (error) {
    console.warn(`[tools] cannot read the tool registry file ${file}: ${(error as Error).message}`)
  }
  return staticTools
}

/** The static tools loaded at start-up. */
export function listStaticTools(): RichToolDefinition[] {
  return staticTools
}
