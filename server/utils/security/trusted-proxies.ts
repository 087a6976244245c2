import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/**
 * Which reverse proxies in front of the server are believed (`NUXT_TRUSTED_PROXIES`): the addresses or CIDR ranges
 * they connect from, or, when their addresses are not known in advance (a cloud load balancer), how many of them
 * stand in a row in front of the app.
 */
export type TrustedProxies =
  | { kind: 'ranges', ranges: [Address, number][] }
  | { kind: 'hops', count: number }

/** Loopback and private networks: a proxy on the same host, in the same container network or LAN. */
export const DEFAULT_TRUSTED_PROXIES = '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7'

/** One address, without brackets, port or zone; IPv4-mapped IPv6 (`::ffff:10.0.0.1`) read as the IPv4 it carries. */
export function parseAddress(text: string): Address | undefined {
  let bare = text.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(bare)
  if (bracketed) bare = bracketed[1]!
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(bare)) bare = bare.slice(0, bare.lastIndexOf(':'))
  bare = bare.split('%')[0]!
  if (!ipaddr.isValid(bare)) return undefined
  // isValid accepts shorthand such as "1" or "0x7f.1"; a proxy writes addresses out in full
  if (!ipaddr.IPv6.isValid(bare) && !ipaddr.IPv4.isValidFourPartDecimal(bare)) return undefined
  return ipaddr.process(bare)
}

/**
 * Reads `NUXT_TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges (`10.0.0.5`, `10.0.0.0/8`, `fd00::/8`), or
 * a whole number of proxies in a row (`1`: one load balancer whose address is not known). Empty means loopback and
 * the private ranges. Entries that are neither are left out (with a warning): a typo narrows trust, never widens it.
 */
export function parseTrustedProxies(configured: unknown): TrustedProxies {
  const text = String(configured ?? '').trim()
  if (/^\d+$/.test(text)) return { kind: 'hops', count: Number(text) }
  const ranges: [Address, number][] = []
  for (const entry of (text || DEFAULT_TRUSTED_PROXIES).split(',').map(item => item.trim()).filter(Boolean)) {
    const range = parseRange(entry)
    if (range) ranges.push(range)
    else console.warn(`[plugboard] NUXT_TRUSTED_PROXIES: "${entry.slice(0, 100)}" is neither an address nor a CIDR range; left out.`)
  }
  return { kind: 'ranges', ranges }
}

function parseRange(entry: string): [Address, number] | undefined {
  if (!entry.includes('/')) {
    const address = parseAddress(entry)
    return address && [address, address.kind() === 'ipv4' ? 32 : 128]
  }
  try {
    const [address, bits] = ipaddr.parseCIDR(entry)
    // a mapped IPv6 range of IPv4 proxies (::ffff:10.0.0.0/104) matches them as IPv4
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96]
    return [address, bits]
  }
  catch {
    return undefined
  }
}

/** Whether the direct peer (the socket's address) is one of the trusted proxies. */
export function isTrustedPeer(peer: string | undefined, trusted: TrustedProxies): boolean {
  if (trusted.kind === 'hops') return trusted.count > 0
  const address = peer === undefined ? undefined : parseAddress(peer)
  return !!address && isTrustedAddress(address, trusted.ranges)
}

function isTrustedAddress(address: Address, ranges: [Address, number][]): boolean {
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits))
}

/**
 * The client's address behind trusted proxies. Each proxy appends the address it got the request from to
 * `X-Forwarded-For`, so everything left of the entry written by the outermost trusted proxy was written by the
 * client and proves nothing. The walk goes from the socket's peer leftwards through `X-Forwarded-For` while the
 * hops are trusted (by range, or for `count` hops), and the first hop not trusted is the client. A peer that is not
 * a trusted proxy is the client itself, whatever headers it sent.
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  const peerAddress = peer === undefined ? undefined : parseAddress(peer)
  if (!peerAddress) return peer?.slice(0, 64) || 'unknown'
  const hops = (forwardedFor ?? '').split(',').map(item => item.trim()).filter(Boolean)
  let client: Address = peerAddress
  if (trusted.kind === 'hops') {
    // hops[length - 1] was written by proxy 1 (the peer), hops[length - count] by proxy `count`
    for (let index = hops.length - 1; index >= Math.max(0, hops.length - trusted.count); index--) {
      const hop = parseAddress(hops[index]!)
      // a hop no proxy would write: the nearest well-formed one stands for the client
      if (!hop) break
      client = hop
    }
    return client.toString()
  }
  if (!isTrustedAddress(peerAddress, trusted.ranges)) return peerAddress.toString()
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = parseAddress(hops[index]!)
    if (!hop) break
    client = hop
    if (!isTrustedAddress(hop, trusted.ranges)) break
  }
  return client.toString()
}

/**
 * The key a budget counts an address under: an IPv4 address as it is, an IPv6 address by its /64 network. One
 * IPv6 host is usually handed a whole /64, so counting single addresses would let it rotate to a fresh budget
 * at will. Text that is not an address is kept (clipped), so it still counts as one client.
 */
export function addressBudgetKey(address: string): string {
  const parsed = parseAddress(address)
  if (!parsed) return address.slice(0, 64)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map(part => part.toString(16))
  return `${parts.join(':')}::/64`
}
