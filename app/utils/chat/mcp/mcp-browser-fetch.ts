import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'

/** How the browser reaches an MCP server: itself, or through the app's relay (/api/mcp/proxy). */
export type McpRoute = 'direct' | 'proxy'

export interface McpBrowserFetchOptions {
  /** False when the page's CSP does not allow the server's origin: go through the relay from the start. */
  direct: boolean
  /** @default '/api/mcp/proxy' */
  proxyPath?: string
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Called once the route is known (and when it changes to the relay). */
  onRoute?: (route: McpRoute) => void
}

function targetOf(input: string | URL | Request): string {
  return input instanceof Request ? input.url : String(input)
}

/**
 * The fetch an MCP connection uses in the browser. It talks to the server directly when it may; when that fails the
 * way a browser fails a refused CORS or CSP request (a TypeError, no answer to read), it switches to the app's
 * relay for good and repeats the request there. A server that is down fails on both routes, and the relay's
 * answer says why.
 */
export function createMcpBrowserFetch(options: McpBrowserFetchOptions): FetchLike {
  const send = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args))
  const proxyPath = options.proxyPath ?? '/api/mcp/proxy'
  let route: McpRoute | undefined = options.direct ? undefined : 'proxy'
  const viaProxy = (input: string | URL, init?: RequestInit) =>
    send(`${proxyPath}?url=${encodeURIComponent(targetOf(input))}`, { ...init, credentials: 'same-origin' })

  return async (input, init) => {
    if (route === 'proxy') {
      options.onRoute?.('proxy')
      return viaProxy(input, init)
    }
    try {
      const response = await send(input, { ...init, credentials: 'omit' })
      if (route === undefined) {
        route = 'direct'
        options.onRoute?.('direct')
      }
      return response
    }
    catch (error) {
      // only the first answer decides: a connection that worked directly and then failed is a dropped connection
      if (route !== undefined || !(error instanceof TypeError) || init?.signal?.aborted) throw error
      route = 'proxy'
      options.onRoute?.('proxy')
      return viaProxy(input, init)
    }
  }
}
