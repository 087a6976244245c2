/**
 * Server tools in the browser: the tools only the server can run (`runtime: 'server'`, e.g. fetch_web_page) join
 * the browser's registry, so they sit in the popover with the same switches and saved choices, and a chat in the
 * tab runs them through `POST /api/tools/:name/execute`. Hybrid tools are already here from plugins/ and stay
 * local; client-only ones are the browser's anyway.
 */
import type { ToolHandler } from '#shared/tools/tool-types'
import type { ServerToolExecution, ServerToolInfo, ServerToolList } from '#shared/types/server-tools'
import type { LoadToolPluginsResult } from '../registry/load-tool-plugins'
import type { RegisterableToolDefinition, ToolRegistry } from '../registry/tool-registry-types'

/** The browser waits this much longer than the server's timeout, so the server's timeout message is the one shown. */
const TIMEOUT_MARGIN_MS = 5_000

export interface ServerToolsOptions {
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Prefix of the API routes (tests point it at a server). @default '' (this origin) */
  baseUrl?: string
}

/** The browser's definition of a server tool: its metadata, with a timeout that leaves the server room to answer. */
function toBrowserDefinition(info: ServerToolInfo): RegisterableToolDefinition {
  const { type, function: fn, ui, description, icon, category, defaultEnabled, catalog, approval } = info.definition
  return {
    type, function: fn, ui, description, icon, category, defaultEnabled, catalog, timeoutMs: info.timeoutMs + TIMEOUT_MARGIN_MS,
    actsOutsideApp: info.actsOutsideApp, ...(approval !== undefined && { approval }),
  }
}

/**
 * A handler that runs the tool on the server. The arguments (already checked here) are checked there again;
 * Stop and the timeout abort the request through `context.signal`. A failure on the server is thrown with the
 * server's reason, without the `tool "name"` prefix the executor here adds again.
 */
export function serverToolHandler(name: string, options: ServerToolsOptions = {}): ToolHandler {
  const send = options.fetch ?? globalThis.fetch
  return async (args, context) => {
    const response = await send(`${options.baseUrl ?? ''}/api/tools/${encodeURIComponent(name)}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: JSON.stringify(args ?? {}) }),
      signal: context.signal,
    })
    const body = await response.json().catch(() => undefined) as Partial<ServerToolExecution> & { message?: string } | undefined
    if (typeof body?.result === 'string' && response.ok) return body.result
    const reason = body?.error ?? body?.message ?? `the server answered HTTP ${response.status} without a result`
    throw new Error(withoutToolPrefix(reason, name))
  }
}

/**
 * The server's error without its `tool "name" failed: ` prefix (the card already names the tool). Plain string
 * checks: the name comes from the server's list (an operator's MCP server names its own tools), and put into a
 * RegExp its `(`, `+` or `[` would change or break the pattern.
 */
function withoutToolPrefix(reason: string, name: string): string {
  const prefix = `tool "${name}" `
  if (!reason.startsWith(prefix)) return reason
  const rest = reason.slice(prefix.length)
  return rest.startsWith('failed: ') ? rest.slice('failed: '.length) : rest
}

/** The first send waits for the tool list: a server that does not answer must not hold it for long. */
const LIST_TIMEOUT_MS = 10_000

/** `GET /api/tools`. */
export async function fetchServerTools(options: ServerToolsOptions = {}): Promise<ServerToolInfo[]> {
  const response = await (options.fetch ?? globalThis.fetch)(`${options.baseUrl ?? ''}/api/tools`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
  })
  if (!response.ok) throw Object.assign(new Error(`GET /api/tools answered HTTP ${response.status}`), { status: response.status })
  return ((await response.json()) as ServerToolList).tools
}

/**
 * Adds the server-only tools to what `loadToolPlugins` registered: their names join `loaded`, and `dispose` drops
 * them too. A name the browser already has keeps the browser's tool. When the server cannot be asked the browser's
 * tools still load, with a warning (none when the server wants a sign-in first: the app reloads after it).
 */
export async function withServerTools(
  result: LoadToolPluginsResult,
  registry: Pick<ToolRegistry, 'registerTool' | 'getTool'>,
  options: ServerToolsOptions = {},
): Promise<LoadToolPluginsResult> {
  let tools: ServerToolInfo[]
  try {
    tools = await fetchServerTools(options)
  }
  catch (error) {
    if ((error as { status?: number }).status !== 401) console.warn(`[plugboard] server tools are not available: ${(error as Error).message}`)
    return result
  }
  const disposers: Array<() => void> = []
  const loaded = [...result.loaded]
  for (const info of tools) {
    if (info.runtime !== 'server' || registry.getTool(info.name)) continue
    try {
      disposers.push(registry.registerTool(toBrowserDefinition(info), serverToolHandler(info.name, options)))
      loaded.push(info.name)
    }
    catch (error) {
      console.error(`Failed to add server tool ${info.name}: ${(error as Error).message}`, error)
    }
  }
  return { ...result, loaded, dispose: () => [result.dispose, ...disposers].forEach(dispose => dispose()) }
}
