// fetch_web_page must never reach inside the server's network. Every refusal here happens before a connection is
// opened: the injected resolver and request function record what was asked, and the loopback server below is the
// only address ever connected to (through the allow-list, as an operator would allow an intranet host).
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fetchPublicUrl } from '~~/server/utils/net/fetch-public-url'
import { nodeRequest } from '~~/server/utils/net/pinned-request'
import type { RequestFunction } from '~~/server/utils/net/pinned-request'
import { isPublicAddress, nonPublicReason } from '~~/server/utils/net/public-address'
import { resolvePublicAddress } from '~~/server/utils/net/resolve-public-address'
import type { HostResolver } from '~~/server/utils/net/resolve-public-address'
import { BlockedUrlError } from '~~/server/utils/net/errors/blocked-url-error'
import { isAllowedHost, parseAllowedHosts } from '~~/server/utils/net/allowed-hosts'

const neverSend: RequestFunction = vi.fn(() => {
  throw new Error('a request was sent')
})
const neverResolve: HostResolver = vi.fn(() => {
  throw new Error('a name was resolved')
})

async function refusal(url: string, options: Parameters<typeof fetchPublicUrl>[1] = {}): Promise<BlockedUrlError> {
  const error = await fetchPublicUrl(url, { send: neverSend, resolve: neverResolve, ...options }).then(() => undefined, (error: unknown) => error)
  expect(BlockedUrlError.isInstance(error), `${url} was not refused: ${String(error)}`).toBe(true)
  return error as BlockedUrlError
}

describe('which addresses count as public', () => {
  it.each([
    ['127.0.0.1', /loopback/], ['127.255.255.254', /loopback/], ['10.0.0.1', /private/], ['10.255.255.255', /private/],
    ['172.16.0.1', /private/], ['172.31.255.255', /private/], ['192.168.1.1', /private/], ['169.254.169.254', /link-local/],
    ['169.254.0.1', /link-local/], ['100.64.0.1', /carrier-grade NAT/], ['100.127.255.255', /carrier-grade NAT/], ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/], ['224.0.0.1', /multicast/], ['255.255.255.255', /broadcast/], ['240.0.0.1', /reserved/], ['192.0.2.1', /reserved/],
    ['::1', /loopback/], ['::', /unspecified/], ['fc00::1', /unique-local/], ['fd12:3456::1', /unique-local/], ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/], ['ff02::1', /multicast/], ['::ffff:127.0.0.1', /IPv4-mapped/], ['::ffff:10.0.0.1', /IPv4-mapped/],
    ['::ffff:8.8.8.8', /IPv4-mapped/], ['::127.0.0.1', /IPv4-/], ['::7f00:1', /IPv4-compatible/], ['64:ff9b::a00:1', /rfc6052/], ['2002:a00:1::', /6to4/],
  ])('refuses %s', (address, reason) => {
    expect(nonPublicReason(address)).toMatch(reason)
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111'])('accepts the public address %s', (address) => {
    expect(nonPublicReason(address)).toBeUndefined()
  })

  it('refuses what is not an IP address at all', () => {
    expect(nonPublicReason('localhost')).toMatch(/not an IP address/)
  })
})

describe('fetchPublicUrl refuses inside addresses before connecting', () => {
  it.each([
    'http://127.0.0.1/', 'http://127.1.2.3:8080/admin', 'http://10.0.0.1/', 'http://172.16.5.4/', 'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[::1]/', 'http://[fc00::1]/',
    'http://[fd00:ec2::254]/', 'http://[fe80::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[::ffff:169.254.169.254]/', 'http://[::127.0.0.1]/',
  ])('refuses %s', async (url) => {
    const error = await refusal(url)
    expect(error.message).toMatch(/^Refused to fetch .*: .* is .*\. Only public http\(s\) addresses can be fetched\.$/)
  })

  it.each([
    ['http://2130706433/', '127.0.0.1'], ['http://0x7f.1/', '127.0.0.1'], ['http://0x7f000001/', '127.0.0.1'], ['http://017700000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'], ['http://127.1/', '127.0.0.1'], ['http://0/', '0.0.0.0'], ['http://167772161/', '10.0.0.1'],
    ['http://0xA9.0xFE.0xA9.0xFE/', '169.254.169.254'], ['http://3232235521/', '192.168.0.1'],
  ])('refuses the decimal, octal or hex spelling %s (%s)', async (url, address) => {
    expect((await refusal(url)).reason).toContain(address)
  })

  it('refuses a host name that resolves to a private address, asking the resolver and nothing else', async () => {
    const resolve = vi.fn<HostResolver>(async () => [{ address: '10.1.2.3', family: 4 }])
    const error = await refusal('https://intranet.example.com/wiki', { resolve })
    expect(resolve).toHaveBeenCalledWith('intranet.example.com')
    expect(error.reason).toBe('"intranet.example.com" resolves to 10.1.2.3, a private network address')
  })

  it('refuses a name when any one of its addresses is inside, whichever comes first', async () => {
    const resolve: HostResolver = async () => [{ address: '93.184.216.34', family: 4 }, { address: '::1', family: 6 }]
    expect((await refusal('http://mixed.example.com/', { resolve })).reason).toMatch(/::1, a loopback address/)
  })

  it('refuses localhost through the system resolver', async () => {
    expect((await refusal('http://localhost:9/', { resolve: undefined })).reason).toMatch(/"localhost" resolves to .*loopback/)
  })

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'data:text/plain,hi', 'javascript:alert(1)', 'not a url', '/relative'])('refuses %s', async (url) => {
    expect((await refusal(url)).message).toMatch(/scheme is not allowed|not a valid absolute URL/)
  })

  it('refuses URLs carrying credentials', async () => {
    expect((await refusal('https://user:secret@example.com/')).reason).toMatch(/user name or password/)
  })
})

describe('resolvePublicAddress', () => {
  it('returns the checked address to pin the connection to', async () => {
    const resolve: HostResolver = async () => [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }]
    expect(await resolvePublicAddress(new URL('https://example.com/'), { resolve })).toEqual({ address: '93.184.216.34', family: 4 })
  })

  it('lets the allow-list through by host:port or host name, and nothing else', async () => {
    const allowedHosts = parseAllowedHosts(' 127.0.0.1:4321 , Wiki.Internal,[::1]:8080')
    expect(allowedHosts).toEqual(['127.0.0.1:4321', 'wiki.internal', '[::1]:8080'])
    expect(isAllowedHost(new URL('http://127.0.0.1:4321/x'), allowedHosts)).toBe(true)
    expect(isAllowedHost(new URL('http://127.0.0.1:4322/x'), allowedHosts)).toBe(false)
    expect(isAllowedHost(new URL('https://wiki.internal/'), allowedHosts)).toBe(true)
    expect(isAllowedHost(new URL('http://[::1]:8080/'), allowedHosts)).toBe(true)
    expect(isAllowedHost(new URL('http://[::1]:8081/'), allowedHosts)).toBe(false)
    // a host named without a port is its scheme's default port only (80 for http, 443 for https)
    expect(isAllowedHost(new URL('http://wiki.internal/'), allowedHosts)).toBe(true)
    expect(isAllowedHost(new URL('https://wiki.internal:443/'), allowedHosts)).toBe(true)
    for (const other of ['http://wiki.internal:8080/', 'https://wiki.internal:8443/', 'http://wiki.internal:443/', 'https://wiki.internal:80/', 'http://wiki.internal:6379/']) {
      expect(isAllowedHost(new URL(other), allowedHosts), other).toBe(false)
    }
    // and a host:port entry names that port only, whatever the scheme's default
    expect(isAllowedHost(new URL('http://127.0.0.1/'), allowedHosts)).toBe(false)
    const resolve: HostResolver = async () => [{ address: '10.0.0.7', family: 4 }]
    expect(await resolvePublicAddress(new URL('https://wiki.internal/'), { resolve, allowedHosts })).toEqual({ address: '10.0.0.7', family: 4 })
    expect(parseAllowedHosts(undefined)).toEqual([])
  })
})

describe('against a loopback server reached through the allow-list', () => {
  let server: Server
  let origin = ''
  let allowedHosts: string[] = []
  const seen: Array<{ url: string, host: string }> = []

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ url: request.url ?? '', host: request.headers.host ?? '' })
      const url = new URL(request.url ?? '/', 'http://x')
      const location = url.searchParams.get('to')
      if (location) {
        response.writeHead(302, { location })
        return response.end()
      }
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.end('inside')
    })
    await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    allowedHosts = [new URL(origin).host]
  })

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise(done => server.close(done))
  })

  it('refuses a redirect to a private address, checked again on the new hop', async () => {
    const send = vi.fn<RequestFunction>(nodeRequest)
    const error = await refusal(`${origin}/?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, { allowedHosts, send })
    expect(error.reason).toMatch(/169\.254\.169\.254 is a link-local address/)
    expect(send).toHaveBeenCalledTimes(1)
  })

  it('refuses a redirect to a name that resolves inside, and to another port of the allowed host', async () => {
    const resolve: HostResolver = async () => [{ address: '192.168.10.10', family: 4 }]
    await refusal(`${origin}/?to=${encodeURIComponent('http://router.example/')}`, { allowedHosts, resolve, send: nodeRequest })
    const otherPort = `http://127.0.0.1:${Number(new URL(origin).port) + 1}/`
    expect((await refusal(`${origin}/?to=${encodeURIComponent(otherPort)}`, { allowedHosts, send: nodeRequest })).reason).toMatch(/loopback/)
  })

  it('connects to the address it checked, not to whatever a second lookup would say (DNS rebinding)', async () => {
    const port = new URL(origin).port
    // The first answer is the one checked and pinned; a rebinding resolver would answer differently the next time.
    const answers = [[{ address: '127.0.0.1', family: 4 as const }], [{ address: '10.0.0.1', family: 4 as const }]]
    const resolve = vi.fn<HostResolver>(async () => answers.shift() ?? [])
    seen.length = 0
    const page = await fetchPublicUrl(`http://rebind.test:${port}/page`, { resolve, allowedHosts: [`rebind.test:${port}`] })
    expect(page.text).toBe('inside')
    expect(resolve).toHaveBeenCalledTimes(1)
    expect(seen).toEqual([{ url: '/page', host: `rebind.test:${port}` }])
  })

  it('follows at most 3 redirects', async () => {
    const hop = (to: string) => `${origin}/?to=${encodeURIComponent(to)}`
    expect((await fetchPublicUrl(hop(hop(hop(`${origin}/end`))), { allowedHosts })).text).toBe('inside')
    const error = await fetchPublicUrl(hop(hop(hop(hop(`${origin}/end`)))), { allowedHosts }).catch((error: Error) => error)
    expect((error as Error).message).toMatch(/more than 3 redirects/)
  })
})
