import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** Words for ipaddr.js's range names, as the refusal says them. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (cloud metadata lives here)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
  reserved: 'a reserved address',
  uniqueLocal: 'a unique-local (private) IPv6 address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
}

/**
 * Why an IP address is not a public one, or undefined when it is. Only ipaddr.js's plain `unicast` range passes:
 * private, loopback, link-local, CGNAT, multicast, unspecified, reserved and every IPv6 range that embeds or
 * translates an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are refused, so no spelling of an inside
 * address gets through.
 */
export function nonPublicReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '')
  if (!isIP(bare.split('%')[0]!)) return `"${address}" is not an IP address`
  const parsed = ipaddr.parse(bare)
  let range: string = parsed.range()
  // ::a.b.c.d (deprecated) is 'unicast' to ipaddr.js, but it carries an IPv4 address all the same.
  if (range === 'unicast' && parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every(part => part === 0)) range = 'ipv4Compatible'
  if (range === 'unicast') return undefined
  return `${bare} is ${RANGE_WORDS[range] ?? `in a special-purpose range (${range})`}`
}

/** True for an address the server may connect to on a user's (or a model's) behalf. */
export function isPublicAddress(address: string): boolean {
  return nonPublicReason(address) === undefined
}
