import { parseOperatorMcpServers, startOperatorMcpServers } from '../utils/mcp/operator-mcp-servers'

/**
 * The operator's MCP servers (NUXT_MCP_SERVERS): connected in the background at start-up, their tools registered as
 * server tools while connected; closed (sessions ended) when Nitro shuts down.
 */
export default defineNitroPlugin((nitroApp) => {
  const { servers, problems } = parseOperatorMcpServers(useRuntimeConfig().mcpServers)
  for (const problem of problems) console.warn(`[mcp] ${problem}`)
  if (servers.length === 0) return
  let last = new Map<string, string>()
  const close = startOperatorMcpServers(servers, {
    onState: (server, state) => {
      const line = `${state.status}${state.message ? `: ${state.message}` : ''}`
      if (last.get(server.name) === line) return
      last = new Map(last).set(server.name, line)
      console.info(`[mcp] ${server.name} ${line}${state.status === 'connected' ? ` (${state.tools.length} tools)` : ''}`)
    },
  })
  nitroApp.hooks.hook('close', close)
})
