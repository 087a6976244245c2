import { relayMcpRequest } from '../../utils/mcp/mcp-proxy'

/**
 * /api/mcp/proxy?url=<MCP server URL> (GET, POST, DELETE): relays a browser's MCP requests to a server the operator
 * allows (NUXT_MCP_ALLOWED_HOSTS). The middleware has already checked the session, the origin, the body size and
 * the rate limit.
 */
export default defineEventHandler(async (event) => {
  const reason = await relayMcpRequest(event, { allowedHosts: useRuntimeConfig(event).mcpAllowedHosts })
  if (reason) console.warn(`[mcp] relayed stream ended early: ${reason}`)
})
