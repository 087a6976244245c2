/** The path of the sandbox page the app serves on its sandbox origin. */
export const MCP_APP_SANDBOX_PATH = '/_mcp-apps/sandbox'

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin !== 'null' ? url.origin : undefined
  }
  catch {
    return undefined
  }
}

/**
 * The origin MCP Apps are framed from, never the page's own: the configured one
 * (`NUXT_PUBLIC_MCP_APPS_SANDBOX_ORIGIN`), else, on a loopback host, the other loopback name on the same port
 * (`localhost` ⇄ `127.0.0.1`: two origins with one server, for `npm run dev`, the built app on a laptop and the
 * tests). Undefined when there is none: apps are then not shown.
 */
export function mcpAppSandboxOrigin(pageOrigin: string, configured?: string): string | undefined {
  const page = originOf(pageOrigin)
  if (!page) return undefined
  if (configured) {
    const origin = originOf(configured)
    return origin && origin !== page ? origin : undefined
  }
  const url = new URL(page)
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1'
  else if (url.hostname === '127.0.0.1') url.hostname = 'localhost'
  else return undefined
  return url.origin
}
