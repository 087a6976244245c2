/**
 * MCP servers the operator configures (NUXT_MCP_SERVERS, JSON `[{ "name", "url", "headers"?, "oauth"? }]`, where
 * `oauth` is `{ "clientId", "clientSecret", "scope"?, "issuer"? }` for a server that takes OAuth client credentials): each server's
 * tools become server tools (runtime 'server', ask before running), so chats running on the server can use them and
 * the browser lists them from GET /api/tools. The list follows the server's `tools/list_changed`.
 */
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import { isRecord } from '#shared/types/is-record'
import { parseJson } from '#shared/security/parse-json'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import type { McpConnection, McpConnectionOptions, McpConnectionState } from '#shared/mcp/mcp-connection'
import { MAX_MCP_SERVERS } from '#shared/mcp/mcp-limits'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import { mcpServerPrefix } from '#shared/mcp/mcp-tool-name'
import { listServerTools, registerServerTool } from '../chat/tool-registry'

export interface OperatorMcpServer {
  name: string
  url: string
  headers?: Record<string, string>
  /** OAuth client credentials (the client_credentials grant; the SDK discovers the token endpoint). */
  oauth?: { clientId: string, clientSecret: string, scope?: string, issuer?: string }
}

/** One call of an operator's MCP tool may take this long (the server registry's cap is 120 s). */
const OPERATOR_TOOL_TIMEOUT_MS = 60_000

function parseHeaders(value: unknown, problems: string[], where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined
  if (!isRecord(value)) {
    problems.push(`${where}: "headers" must be an object of strings`)
    return undefined
  }
  const headers: Record<string, string> = {}
  for (const [name, item] of Object.entries(value).slice(0, 32)) {
    if (typeof item === 'string' && /^[\w-]{1,64}$/.test(name) && !/[\r\n]/.test(item)) headers[name.toLowerCase()] = item
    else problems.push(`${where}: header "${name.slice(0, 64)}" is not a plain string header`)
  }
  return headers
}

function parseOAuth(value: unknown, problems: string[], where: string): OperatorMcpServer['oauth'] {
  if (value === undefined) return undefined
  const { clientId, clientSecret, scope, issuer } = isRecord(value) ? value : {}
  const optional = [scope, issuer].every(item => item === undefined || typeof item === 'string')
  if (typeof clientId !== 'string' || !clientId || typeof clientSecret !== 'string' || !clientSecret || !optional) {
    problems.push(`${where}: "oauth" must be { "clientId", "clientSecret", "scope"?, "issuer"? } of strings`)
    return undefined
  }
  return { clientId, clientSecret, ...(scope ? { scope: scope as string } : {}), ...(issuer ? { issuer: issuer as string } : {}) }
}

/**
 * The servers of NUXT_MCP_SERVERS (a JSON string, or the array Nuxt already parsed it into), and the entries it
 * could not use, with why. At most MAX_MCP_SERVERS servers; names must be unique.
 */
export function parseOperatorMcpServers(configured: unknown): { servers: OperatorMcpServer[], problems: string[] } {
  const problems: string[] = []
  let value = configured
  if (typeof value === 'string') {
    if (!value.trim()) return { servers: [], problems }
    try {
      value = parseJson(value)
    }
    catch (error) {
      return { servers: [], problems: [`NUXT_MCP_SERVERS is not valid JSON (${(error as Error).message})`] }
    }
  }
  if (value === undefined || value === null || value === '') return { servers: [], problems }
  if (!Array.isArray(value)) return { servers: [], problems: ['NUXT_MCP_SERVERS must be a JSON array of { "name", "url", "headers"?, "oauth"? }'] }
  const servers: OperatorMcpServer[] = []
  const prefixes = new Set<string>()
  value.forEach((entry: unknown, index) => {
    const where = `NUXT_MCP_SERVERS[${index}]`
    const item = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>
    const name = typeof item.name === 'string' ? item.name.trim() : ''
    if (!name || name.length > 40) return problems.push(`${where}: "name" must be 1 to 40 characters`)
    let url: URL
    try {
      url = new URL(String(item.url))
    }
    catch {
      return problems.push(`${where} (${name}): "url" is not an absolute URL`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return problems.push(`${where} (${name}): "url" must be http(s)`)
    const prefix = mcpServerPrefix(name)
    if (prefixes.has(prefix)) return problems.push(`${where} (${name}): another server already has this name`)
    if (servers.length >= MAX_MCP_SERVERS) return problems.push(`${where} (${name}): at most ${MAX_MCP_SERVERS} servers`)
    prefixes.add(prefix)
    const oauth = parseOAuth(item.oauth, problems, `${where} (${name})`)
    servers.push({ name, url: url.href, headers: parseHeaders(item.headers, problems, `${where} (${name})`), ...(oauth ? { oauth } : {}) })
  })
  return { servers, problems }
}

export interface StartOperatorMcpServersOptions {
  /** Passed to each connection (tests shorten the backoff). */
  connection?: Partial<McpConnectionOptions>
  /** Called when a server's status changes, for the server log. */
  onState?: (server: OperatorMcpServer, state: McpConnectionState) => void
}

/** Keeps the server registry in line with one connection's tools: registers new ones, drops those that went away. */
function syncTools(server: OperatorMcpServer, connection: McpConnection, registered: Map<string, () => void>) {
  const current = new Set(connection.state.tools.map(tool => tool.name))
  for (const [name, dispose] of registered) {
    if (!current.has(name)) {
      dispose()
      registered.delete(name)
    }
  }
  for (const tool of connection.state.tools) {
    if (registered.has(tool.name)) continue
    try {
      registered.set(tool.name, registerServerTool({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        ui: { label: tool.title || tool.mcpName, category: server.name, defaultEnabled: false },
        icon: 'i-lucide-plug',
        runtime: 'server',
        actsOutsideApp: true,
        approval: 'ask',
        timeoutMs: OPERATOR_TOOL_TIMEOUT_MS,
      }, mcpToolHandler(connection, tool.mcpName), { runtime: 'server' }))
    }
    catch (error) {
      console.warn(`[mcp] ${server.name}: tool ${tool.mcpName} skipped: ${(error as Error).message}`)
    }
  }
}

/** Connects to each server (in the background) and registers its tools. Returns a function that closes them all. */
export function startOperatorMcpServers(servers: readonly OperatorMcpServer[], options: StartOperatorMcpServersOptions = {}): () => Promise<void> {
  const connections: McpConnection[] = []
  const registrations: Array<Map<string, () => void>> = []
  for (const server of servers) {
    const registered = new Map<string, () => void>()
    const connection: McpConnection = createMcpConnection({
      url: server.url,
      prefix: mcpServerPrefix(server.name),
      headers: server.headers,
      // the issuer, when given, is the only authorization server the secret is ever sent to
      authProvider: server.oauth ? new ClientCredentialsProvider({ ...server.oauth, expectedIssuer: server.oauth.issuer }) : undefined,
      takenNames: () => new Set(listServerTools().map(tool => tool.name).filter(name => !registered.has(name))),
      // the operator's servers are meant to be up: keep trying, at most once a minute
      reconnect: { maxDelayMs: 60_000, maxAttempts: Number.POSITIVE_INFINITY },
      ...options.connection,
      onChange: (state) => {
        syncTools(server, connection, registered)
        options.onState?.(server, state)
      },
    })
    connections.push(connection)
    registrations.push(registered)
    void connection.connect()
  }
  return async () => {
    await Promise.all(connections.map(connection => connection.close()))
    for (const registered of registrations) for (const dispose of registered.values()) dispose()
  }
}
