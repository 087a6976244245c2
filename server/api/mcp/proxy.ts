import { relayMcpRequest } from '../../utils/mcp/mcp-proxy'
import { takeRelaySlot, MAX_RELAYED_REQUESTS_PER_SESSION } from '../../utils/mcp/relay-slots'
import { requireOwner } from '../../utils/accounts/request-owner'

/**
 * /api/mcp/proxy?url=<MCP server URL> (GET, POST, DELETE): relays a browser's MCP requests to a server the operator
 * allows (NUXT_MCP_ALLOWED_HOSTS). The middleware has already checked the session, the origin, the body size and
 * the rate limit; here each session may hold a bounded number of relayed requests open at once.
 */
export default defineEventHandler(async (event) => {
  const { ownerId } = await requireOwner(event)
  const release = takeRelaySlot(ownerId)
  if (!release) {
    throw createError({ statusCode: 429, statusMessage: 'Too Many Requests', message: `At most ${MAX_RELAYED_REQUESTS_PER_SESSION} MCP requests of one page can be relayed at once. Remove servers you do not use.` })
  }
  try {
    const reason = await relayMcpRequest(event, { allowedHosts: useRuntimeConfig(event).mcpAllowedHosts })
    if (reason) console.warn(`[mcp] relayed stream ended early: ${reason}`)
  }
  finally {
    release()
  }
})
