import type { H3Event } from 'h3'
import { fromTrustedProxy } from '../security/client-address'
import { userError } from '../http/user-error'

/**
 * The origin passkeys are bound to: `NUXT_ACCOUNTS_ORIGIN` when set, else the request's own, read through the
 * trusted proxies only (`NUXT_TRUST_PROXY`), like the rest of the server.
 */
export function passkeySiteOrigin(event: H3Event): URL {
  const configured = String(useRuntimeConfig(event).accountsOrigin ?? '').trim()
  if (configured) {
    try {
      return new URL(new URL(configured).origin)
    }
    catch {
      throw userError(500, 'Server Misconfigured', 'server.passkey.originMisconfigured', { origin: configured.slice(0, 100) })
    }
  }
  const trusted = fromTrustedProxy(event)
  const protocol = getRequestProtocol(event, { xForwardedProto: trusted })
  return new URL(`${protocol}://${getRequestHost(event, { xForwardedHost: trusted })}`)
}

/**
 * Refuses (403) a passkey request whose `Origin` is not the site's, then makes the request's URL the site's own,
 * which nuxt-auth-utils' WebAuthn handlers take as the relying party (rp id = its host name, expected origin = it):
 * a spoofed `Host` or `X-Forwarded-*` header cannot move them to another site.
 */
export function pinPasskeyOrigin(event: H3Event): void {
  const site = passkeySiteOrigin(event)
  const origin = getRequestHeader(event, 'origin')
  if (origin !== site.origin) {
    throw userError(403, 'Forbidden', 'server.passkey.wrongOrigin', { site: site.origin, origin: String(origin ?? 'none').slice(0, 100) })
  }
  const headers = event.node.req.headers
  headers.host = site.host
  if (site.protocol === 'https:') headers['x-forwarded-proto'] = 'https'
  else delete headers['x-forwarded-proto']
}
