import type { H3Event } from 'h3'
import { addressBudgetKey, isTrustedPeer, parseTrustedProxies, resolveClientAddress } from './trusted-proxies'
import type { TrustedProxies } from './trusted-proxies'

/** Whether the operator said the server sits behind a reverse proxy (`NUXT_TRUST_PROXY`). */
export function trustsProxy(event: H3Event): boolean {
  const value = String(useRuntimeConfig(event).trustProxy ?? '').trim().toLowerCase()
  return value === 'true' || value === '1'
}

let parsed: { configured: string, trusted: TrustedProxies } | undefined

/** `NUXT_TRUSTED_PROXIES`, parsed once per value (it is read on every rate-limited request). */
function trustedProxies(event: H3Event): TrustedProxies {
  const configured = String(useRuntimeConfig(event).trustedProxies ?? '')
  if (parsed?.configured !== configured) parsed = { configured, trusted: parseTrustedProxies(configured) }
  return parsed.trusted
}

/**
 * Whether this request came through one of the trusted reverse proxies: only then are its `X-Forwarded-*` headers
 * the proxy's word rather than the client's.
 */
export function fromTrustedProxy(event: H3Event): boolean {
  return trustsProxy(event) && isTrustedPeer(event.node.req.socket.remoteAddress, trustedProxies(event))
}

/**
 * The address rate limits count: the socket's peer, or behind trusted proxies (`NUXT_TRUST_PROXY`,
 * `NUXT_TRUSTED_PROXIES`) the rightmost `X-Forwarded-For` hop that is not one of them. Never the leftmost entry,
 * which the client writes itself.
 */
export function requestClientAddress(event: H3Event): string {
  const peer = event.node.req.socket.remoteAddress
  if (!trustsProxy(event)) return resolveClientAddress(peer, undefined, { kind: 'ranges', ranges: [] })
  return resolveClientAddress(peer, getRequestHeader(event, 'x-forwarded-for'), trustedProxies(event))
}

/** The client's address as budgets count it: IPv6 clients by their /64 network (`addressBudgetKey`). */
export function requestClientBudgetKey(event: H3Event): string {
  return addressBudgetKey(requestClientAddress(event))
}
