import type { H3Event } from 'h3'
import { fromTrustedProxy } from './client-address'
import { serverText } from '#shared/errors/server-messages'
import type { CodedText } from '#shared/errors/coded-text'

/**
 * Why a request did not come from the app's own page, or undefined when it did (or when a non-browser client
 * sent no browser headers: the session check decides those). Browsers send `Sec-Fetch-Site` on every fetch and
 * `Origin` on every cross-origin or non-GET request; another site can forge neither.
 */
export function crossSiteReason(event: H3Event): CodedText | undefined {
  const fetchSite = getRequestHeader(event, 'sec-fetch-site')
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    return serverText('server.access.crossSiteFetch', { fetchSite })
  }
  const origin = getRequestHeader(event, 'origin')
  if (origin === undefined) return undefined
  let originHost: string
  try {
    originHost = new URL(origin).host
  }
  catch {
    return serverText('server.access.crossSiteOrigin', { origin: origin.slice(0, 100) })
  }
  // X-Forwarded-Host is the proxy's word only when a trusted proxy sent the request; anyone else could write it
  const ownHost = getRequestHost(event, { xForwardedHost: fromTrustedProxy(event) })
  return originHost === ownHost ? undefined : serverText('server.access.crossSiteOrigin', { origin: origin.slice(0, 100) })
}
