import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { isAllowedHost } from './allowed-hosts'
import { BlockedUrlError } from './errors/blocked-url-error'
import { WebFetchError } from './errors/web-fetch-error'
import { nonPublicReason } from './public-address'

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to every address it has. Injected in tests (a name that resolves to 10.0.0.1...). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>

/** The system resolver (what the OS would connect to), every address, in the resolver's order. */
export const systemResolver: HostResolver = async hostname =>
  (await lookup(hostname, { all: true, verbatim: true })).map(entry => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }))

export interface ResolvePublicAddressOptions {
  resolve?: HostResolver
  allowedHosts?: readonly string[]
  signal?: AbortSignal
}

/**
 * The one address to connect to for `url`, checked: every address the name resolves to must be public (one inside
 * address is enough to refuse, since the OS might pick it), unless the host is on the allow-list. The caller
 * connects to exactly this address, so a second DNS answer (rebinding) cannot move the connection inside.
 * @throws BlockedUrlError for a non-public address, WebFetchError when the name does not resolve
 */
export async function resolvePublicAddress(url: URL, options: ResolvePublicAddressOptions = {}): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const literal = isIP(host)
  let addresses: ResolvedAddress[]
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }]
  }
  else {
    try {
      addresses = await untilAborted((options.resolve ?? systemResolver)(host), options.signal)
    }
    catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      throw new WebFetchError({ url: url.href, reason: `the host name "${host}" does not resolve`, cause: error })
    }
  }
  if (addresses.length === 0) throw new WebFetchError({ url: url.href, reason: `the host name "${host}" has no address` })
  if (!isAllowedHost(url, options.allowedHosts ?? [])) {
    for (const { address } of addresses) {
      const reason = nonPublicReason(address)
      if (reason) throw new BlockedUrlError({ url: url.href, reason: literal ? reason : `"${host}" resolves to ${reason.replace(/^\S+ is /, `${address}, `)}` })
    }
  }
  return addresses[0]!
}

/** DNS lookups cannot be cancelled: stop waiting for one when the fetch is aborted (time cap, Stop). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
