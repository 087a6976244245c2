import { request as httpRequest } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { pinnedLookup } from '../net/pinned-request'
import type { ResolvedAddress } from '../net/resolve-public-address'

export interface McpUpstreamRequest {
  method: string
  headers: OutgoingHttpHeaders
  body?: string
  signal: AbortSignal
}

/**
 * Sends one request to an MCP server, connected to the address already checked (never a second DNS answer), on a
 * fresh connection, and resolves with the response head. Redirects are not followed (Node's http never does).
 */
export function sendPinnedRequest(url: URL, pinned: ResolvedAddress, options: McpUpstreamRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const request = send(url, {
      method: options.method,
      headers: options.headers,
      signal: options.signal,
      agent: false,
      lookup: pinnedLookup(pinned),
      family: pinned.family,
    }, resolve)
    request.on('error', reject)
    request.end(options.body)
  })
}
