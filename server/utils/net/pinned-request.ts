import { request as httpRequest } from 'node:http'
import type { IncomingMessage, RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import type { ResolvedAddress } from './resolve-public-address'

/** Sends one request and resolves with the response's head. Injected in tests to prove nothing was sent. */
export type RequestFunction = (url: URL, options: RequestOptions) => Promise<IncomingMessage>

/** Node's http/https, one fresh connection per request (no pooled socket from an earlier answer). */
export const nodeRequest: RequestFunction = (url, options) => new Promise((resolve, reject) => {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  const request = send(url, { ...options, agent: false }, resolve)
  // kept for the request's life: an abort after the head arrived must not be an unhandled 'error' event
  request.on('error', reject)
  request.end()
})

/**
 * A `lookup` that answers every question with the address already checked. Node keeps the URL's host name for
 * the Host header, TLS SNI and certificate checks, but connects only where this says: a DNS answer that changed
 * since the check (rebinding) is never asked for.
 */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    // Node 20 asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily), for one otherwise.
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }])
    else callback(null, pinned.address, pinned.family)
  }) as LookupFunction
}

export interface PinnedGetOptions {
  headers?: Record<string, string>
  signal?: AbortSignal
  send?: RequestFunction
}

/** GET `url`, connected to `pinned` only. Resolves with the response head; the caller reads or destroys the body. */
export function pinnedGet(url: URL, pinned: ResolvedAddress, options: PinnedGetOptions = {}): Promise<IncomingMessage> {
  const send = options.send ?? nodeRequest
  return send(url, { method: 'GET', headers: options.headers, signal: options.signal, lookup: pinnedLookup(pinned), family: pinned.family })
}
