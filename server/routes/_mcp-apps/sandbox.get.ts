import { buildMcpAppSandboxCsp, checkCspDomains } from '#shared/mcp/apps/mcp-app-csp'
import { mcpAppSandboxOrigin } from '#shared/mcp/apps/mcp-app-sandbox-origin'
import { MCP_APP_SANDBOX_HTML } from '../../utils/mcp-apps/sandbox-page'

function list(value: unknown): string[] {
  return typeof value === 'string' ? checkCspDomains(value.split(',')) : []
}

/**
 * The MCP Apps sandbox page. Served only on the sandbox origin of the page that asks for it (`host`), with a
 * policy built from the domains the app declared (`connect`, `resource`), embeddable by `host` alone.
 */
export default defineEventHandler((event) => {
  const query = getQuery(event)
  const host = typeof query.host === 'string' ? query.host : ''
  const sandbox = mcpAppSandboxOrigin(host, useRuntimeConfig(event).public.mcpAppsSandboxOrigin || undefined)
  if (!sandbox || sandbox !== getRequestURL(event).origin) {
    throw createError({ statusCode: 404, statusMessage: 'This is not the MCP Apps sandbox origin of that page' })
  }
  const csp = buildMcpAppSandboxCsp({ connectDomains: list(query.connect), resourceDomains: list(query.resource) }, host)
  // the app's own headers deny framing; this page exists to be framed, by `host` only (frame-ancestors)
  event.node.res.removeHeader('x-frame-options')
  event.node.res.removeHeader('cross-origin-opener-policy')
  setResponseHeaders(event, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'cache-control': 'no-store',
  })
  return MCP_APP_SANDBOX_HTML
})
