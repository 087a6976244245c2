/**
 * `npm run registry:flash` (design 003's flash export): writes tool-registry.generated.json, every tool found in
 * plugins/ (the browser's and hybrid tools) and registered by server/plugins/ (server tools), as rich definitions.
 * The output has no timestamp, so it only changes when a tool does; a unit test fails when it is stale.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { RichToolDefinition } from '../shared/types/rich-tool-definition'
import { toRichToolDefinition } from '../shared/tools/rich-definition/to-rich-tool-definition'
import { formatCatalogProblems, validateRichDefinitions } from '../shared/tools/rich-definition/validate-rich-definitions'
import { isToolPlugin } from '../shared/tools/definition/define-tool'
import { normalizeToolDefinition } from '../shared/tools/definition/tool-definition-validation'
import type { ToolRegistryFile } from '../server/utils/chat/static-tool-registry'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const TOOL_REGISTRY_FILE = `${ROOT}tool-registry.generated.json`
/** Server plugins that register tools; the others (sessions, Redis, workers) are not run by the export. */
const REGISTERS_TOOLS = /\bregister\w*Tools?\s*\(/

async function browserTools(): Promise<RichToolDefinition[]> {
  const files = (await readdir(`${ROOT}plugins`)).filter(file => file.endsWith('.ts') && !file.startsWith('_')).sort()
  const definitions: RichToolDefinition[] = []
  for (const file of files) {
    const plugin = ((await import(pathToFileURL(`${ROOT}plugins/${file}`).href)) as { default?: unknown }).default
    if (!isToolPlugin(plugin)) throw new Error(`plugins/${file}: the default export is not a tool made with defineTool()`)
    const normalized = normalizeToolDefinition(plugin.definition)
    definitions.push(toRichToolDefinition(normalized.definition, {
      service: 'browser', label: normalized.definition.ui.label, category: normalized.definition.ui.category, icon: normalized.definition.ui.icon,
      runtime: 'client', timeoutMs: normalized.timeoutMs, catalog: normalized.catalog, connects: normalized.connects,
    }))
  }
  return definitions
}

async function serverTools(): Promise<RichToolDefinition[]> {
  // Nitro's auto-imports, as far as tool-registering plugins use them
  Object.assign(globalThis, { defineNitroPlugin: (plugin: unknown) => plugin, useRuntimeConfig: () => ({}) })
  const { listServerTools } = await import('../server/utils/chat/tool-registry')
  const { toServerRichDefinition } = await import('../server/utils/chat/server-tool-info')
  const files = (await readdir(`${ROOT}server/plugins`)).filter(file => file.endsWith('.ts')).sort()
  for (const file of files) {
    const path = `${ROOT}server/plugins/${file}`
    if (!REGISTERS_TOOLS.test(await readFile(path, 'utf8'))) continue
    const plugin = ((await import(pathToFileURL(path).href)) as { default?: unknown }).default
    if (typeof plugin === 'function') await plugin({ hooks: { hook: () => {} } })
  }
  return listServerTools().map(toServerRichDefinition)
}

/** Every tool as a rich definition: the plugins/ files, then the server-only tools. Hybrid tools appear once. */
export async function collectToolRegistry(): Promise<ToolRegistryFile> {
  const tools = await browserTools()
  for (const server of await serverTools()) {
    const browser = tools.find(tool => tool.toolId === server.toolId)
    if (browser) browser.metadata = { ...browser.metadata, runtime: server.metadata?.runtime ?? 'hybrid' }
    else tools.push(server)
  }
  return { version: 1, generatedBy: 'npm run registry:flash', tools }
}

/** The file's exact text for a registry. */
export function serializeToolRegistry(registry: ToolRegistryFile): string {
  return `${JSON.stringify(registry, null, 2)}\n`
}

async function main() {
  const registry = await collectToolRegistry()
  const { valid, problems } = validateRichDefinitions(registry.tools)
  if (!valid) {
    console.error(`The tools' definitions are not valid:\n${formatCatalogProblems(problems)}`)
    process.exit(1)
  }
  await writeFile(TOOL_REGISTRY_FILE, serializeToolRegistry(registry))
  console.log(`Wrote ${registry.tools.length} tools to tool-registry.generated.json`)
  // the server plugins may have left timers or sockets behind
  process.exit(0)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
