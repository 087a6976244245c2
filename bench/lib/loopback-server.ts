import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A running loopback HTTP server. */
export interface LoopbackServer {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string
  /** Stops accepting connections, drops idle keep-alive sockets and resolves once closed. */
  close: () => Promise<void>
}

/**
 * Starts a node:http server on 127.0.0.1 with a free port chosen by the OS.
 * Used by benches (and tests) to put a real HTTP hop between a client and canned bytes.
 */
export function startLoopbackServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  options: { keepAliveTimeoutMs?: number } = {},
): Promise<LoopbackServer> {
  const server = createServer(handler)
  // Many clients reusing idle sockets: a short keep-alive races their reuse ("fetch failed").
  if (options.keepAliveTimeoutMs) server.keepAliveTimeout = options.keepAliveTimeoutMs
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done, fail) => {
          server.close(error => (error ? fail(error) : done()))
          // Keep-alive sockets from fetch would otherwise hold close() open for seconds.
          server.closeAllConnections()
        }),
      })
    })
  })
}
