// Behind a reverse proxy, as an attacker would probe it: X-Forwarded-For and X-Forwarded-Host written by the client
// must not buy a fresh rate-limit budget or pass the same-site check. Requests come from 127.0.0.1 (a proxy on the
// same host, trusted by default) carrying `spoofed, real-client`, as nginx's $proxy_add_x_forwarded_for writes it.
import { randomUUID } from 'node:crypto'
import * as h3 from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { crossSiteReason } from '~~/server/utils/security/cross-site'
import { consumeRateLimit } from '~~/server/utils/security/rate-limit'
import { addressBudgetKey, parseTrustedProxies, resolveClientAddress } from '~~/server/utils/security/trusted-proxies'
import { listenApp } from './helpers/listen-app'
import type { ListeningApp } from './helpers/listen-app'

const runtimeConfig = { redisUrl: '', rateLimitPerMinute: 30, trustProxy: 'true', trustedProxies: '' }
let server: ListeningApp | undefined
let base = ''

beforeAll(async () => {
  for (const name of ['createError', 'setResponseHeader', 'getRequestHeader', 'getRequestHost'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  (globalThis as Record<string, unknown>).useRuntimeConfig = () => runtimeConfig
  const app = h3.createApp()
  // as /api/auth/sign-in does: counted per IP before the (always wrong) password is looked at
  app.use('/sign-in', h3.defineEventHandler(async (event) => {
    await consumeRateLimit(event, 'sign-in', undefined)
    throw h3.createError({ statusCode: 401, statusMessage: 'Unauthorized' })
  }))
  // as the guard does for a chat: counted per session and per IP; the attacker mints a session per request
  app.use('/chat', h3.defineEventHandler(async (event) => {
    await consumeRateLimit(event, 'model', randomUUID())
    return 'ok'
  }))
  app.use('/same-site', h3.defineEventHandler(event => crossSiteReason(event)?.message ?? 'same site'))
  server = await listenApp(app)
  base = server.base
})

afterAll(async () => {
  await server?.close()
})

const randomAddress = () => Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join('.')

/** Status counts of `count` requests to `path`, each with the X-Forwarded-For `forwardedFor(index)` gives. */
async function flood(path: string, count: number, forwardedFor: (index: number) => string): Promise<{ statuses: number[], tally: Record<number, number> }> {
  const statuses: number[] = []
  for (let index = 0; index < count; index++) {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'x-forwarded-for': forwardedFor(index) } })
    await response.arrayBuffer()
    statuses.push(response.status)
  }
  const tally: Record<number, number> = {}
  for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1
  return { statuses, tally }
}

describe('the client address behind a trusted proxy', () => {
  it('counts 40 wrong passwords with spoofed leftmost entries against the real client: 429 by the 11th', async () => {
    const { statuses, tally } = await flood('/sign-in', 40, () => `${randomAddress()}, 203.0.113.7`)
    console.info('40 spoofed sign-ins:', JSON.stringify(tally))
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses[10]).toBe(429)
    expect(tally).toEqual({ 401: 10, 429: 30 })
  })

  it('counts chats from fresh sessions with spoofed entries against the real client\'s per-IP limit', async () => {
    const { tally } = await flood('/chat', 40, index => `10.${index}.0.1, ${randomAddress()}, 198.51.100.23`)
    console.info('40 spoofed chats from fresh sessions:', JSON.stringify(tally))
    expect(tally).toEqual({ 200: 30, 429: 10 })
  })

  it('still tells real clients behind the proxy apart, each with its own budget', async () => {
    const { tally } = await flood('/sign-in', 20, index => `198.51.100.${100 + index}`)
    expect(tally).toEqual({ 401: 20 })
  })

  it('counts an IPv6 client rotating through its /64 as one client', async () => {
    const hex = () => Math.floor(Math.random() * 0x10000).toString(16)
    const { tally } = await flood('/sign-in', 15, () => `2001:db8:77:1:${hex()}:${hex()}:${hex()}:${hex()}`)
    expect(tally).toEqual({ 401: 10, 429: 5 })
  })

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    runtimeConfig.trustedProxies = '10.0.0.0/8'
    try {
      // even the rightmost entry varies: all of it is the client's writing, the socket's address is counted
      const { tally } = await flood('/sign-in', 15, () => randomAddress())
      expect(tally).toEqual({ 401: 10, 429: 5 })
    }
    finally {
      runtimeConfig.trustedProxies = ''
    }
  })
})

describe('X-Forwarded-Host in the same-site check', () => {
  const ask = (headers: Record<string, string>) => fetch(`${base}/same-site`, { headers }).then(response => response.text())

  it('is refused from a peer that is not a trusted proxy', async () => {
    runtimeConfig.trustedProxies = '10.0.0.0/8'
    try {
      expect(await ask({ 'origin': 'https://evil.example', 'x-forwarded-host': 'evil.example' })).toMatch(/other sites are refused/)
    }
    finally {
      runtimeConfig.trustedProxies = ''
    }
  })

  it('is honoured from a trusted proxy, and only when NUXT_TRUST_PROXY is on', async () => {
    expect(await ask({ 'origin': 'https://chat.example', 'x-forwarded-host': 'chat.example' })).toBe('same site')
    runtimeConfig.trustProxy = 'false'
    try {
      expect(await ask({ 'origin': 'https://chat.example', 'x-forwarded-host': 'chat.example' })).toMatch(/other sites are refused/)
    }
    finally {
      runtimeConfig.trustProxy = 'true'
    }
  })
})

describe('resolveClientAddress', () => {
  const defaults = parseTrustedProxies('')

  it.each([
    ['a direct client, headers ignored', '203.0.113.7', '1.2.3.4', defaults, '203.0.113.7'],
    ['one proxy on the host', '127.0.0.1', '6.6.6.6, 203.0.113.7', defaults, '203.0.113.7'],
    ['two private proxies in a row', '10.0.0.2', '6.6.6.6, 203.0.113.7, 172.16.0.9', defaults, '203.0.113.7'],
    ['a client on the private network', '127.0.0.1', '192.168.1.20', defaults, '192.168.1.20'],
    ['no header from the proxy', '127.0.0.1', undefined, defaults, '127.0.0.1'],
    ['garbage left of a private client', '127.0.0.1', 'not-an-ip, 192.168.1.20', defaults, '192.168.1.20'],
    ['ports and brackets as some proxies write them', '::ffff:127.0.0.1', '203.0.113.7:5123, [2001:db8::1]:443', parseTrustedProxies('127.0.0.1'), '2001:db8::1'],
    ['IPv4-mapped peer', '::ffff:127.0.0.1', '203.0.113.7', defaults, '203.0.113.7'],
    ['hop count 1: the rightmost entry', '35.191.0.1', '6.6.6.6, 203.0.113.7', parseTrustedProxies('1'), '203.0.113.7'],
    ['hop count 2', '35.191.0.1', '6.6.6.6, 203.0.113.7, 130.211.0.5', parseTrustedProxies('2'), '203.0.113.7'],
    ['hop count larger than the chain', '35.191.0.1', '203.0.113.7', parseTrustedProxies('3'), '203.0.113.7'],
    ['an explicit list without the peer', '127.0.0.1', '203.0.113.7', parseTrustedProxies('10.1.2.3, fd00::/8'), '127.0.0.1'],
  ] as const)('%s', (_name, peer, forwardedFor, trusted, expected) => {
    expect(resolveClientAddress(peer, forwardedFor, trusted)).toBe(expected)
  })

  it('keys budgets by the address, IPv6 by its /64 network', () => {
    expect(addressBudgetKey('203.0.113.7')).toBe('203.0.113.7')
    expect(addressBudgetKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressBudgetKey('2001:db8:77:1:abcd::9')).toBe(addressBudgetKey('2001:0db8:0077:0001:ffff:1:2:3'))
    expect(addressBudgetKey('2001:db8:77:2::1')).not.toBe(addressBudgetKey('2001:db8:77:1::1'))
    expect(addressBudgetKey('unknown')).toBe('unknown')
  })

  it('leaves out entries that are neither addresses nor ranges, never trusting more for a typo', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, everything, 0.0.0.0/x')
    expect(trusted).toMatchObject({ kind: 'ranges', ranges: [expect.anything()] })
    expect(resolveClientAddress('8.8.8.8', '1.2.3.4', trusted)).toBe('8.8.8.8')
  })
})
