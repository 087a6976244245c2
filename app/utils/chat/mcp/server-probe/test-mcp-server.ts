/**
 * "Test server" in the browser: the probe on the route the page would use, and the browser's silent failures
 * told apart. A fetch the browser refuses says only "Failed to fetch", whatever happened, so:
 * - an origin the page's policy does not allow is known before any request (CSP), and tested through the relay;
 * - a failed direct request is repeated in `no-cors` mode: an opaque answer means the server is there but does not
 *   allow this app's origin (CORS); a second failure means it cannot be reached at all;
 * - the relay, when its operator allows the host, says what Node saw (DNS, refused, TLS) and runs the probe itself.
 */
import { describeNetworkFailure } from './network-failure'
import { probeMcpServer } from './probe-mcp-server'
import type { McpProbeResult } from './probe-types'

export interface TestMcpServerOptions {
  url: string
  token?: string
  /** Sent with every request (the server's own headers). */
  headers?: Record<string, string>
  /** The server's origin when the page's CSP does not allow it (blockedConnectOrigin), else undefined. */
  blockedOrigin?: string
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** @default '/api/mcp/proxy' */
  proxyPath?: string
  /** @default 10 000 */
  timeoutMs?: number
  signal?: AbortSignal
}

/** The relay's own refusal (not the server's answer), as its JSON error says. */
class RelayRefusal extends Error {
  constructor(message: string, readonly hostRefused: boolean) {
    super(message)
  }
}

const RELAY_REFUSED_HOST = /is not among the MCP servers this server relays|relays no MCP servers/
const RELAY_COULD_NOT_REACH = /^Could not reach the MCP server|answered with a redirect/

async function relayRefusal(response: Response): Promise<RelayRefusal | undefined> {
  if (![403, 502, 504].includes(response.status) || !(response.headers.get('content-type') ?? '').includes('json')) return undefined
  const body = await response.clone().json().catch(() => undefined) as { message?: unknown } | undefined
  const message = typeof body?.message === 'string' ? body.message : ''
  if (RELAY_REFUSED_HOST.test(message)) return new RelayRefusal(message, true)
  if (RELAY_COULD_NOT_REACH.test(message)) return new RelayRefusal(message, false)
  return undefined
}

/** Tests the server the way the app would reach it, and says in words what is wrong. */
export async function testMcpServer(options: TestMcpServerOptions): Promise<McpProbeResult> {
  const send = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args))
  const proxyPath = options.proxyPath ?? '/api/mcp/proxy'
  const host = new URL(options.url).host
  const timeoutMs = options.timeoutMs ?? 10_000
  const started = Date.now()
  const remaining = () => Math.max(1_000, timeoutMs - (Date.now() - started))

  let refusal: RelayRefusal | undefined
  const viaRelay: typeof fetch = async (input, init) => {
    const target = input instanceof Request ? input.url : String(input)
    const response = await send(`${proxyPath}?url=${encodeURIComponent(target)}`, { ...init, credentials: 'same-origin' })
    const refused = await relayRefusal(response)
    if (refused) {
      refusal = refused
      throw refused
    }
    return response
  }
  async function throughRelay(): Promise<McpProbeResult | undefined> {
    refusal = undefined
    const result = await probeMcpServer({ url: options.url, token: options.token, headers: options.headers, fetch: viaRelay, timeoutMs: remaining(), signal: options.signal })
    // set by viaRelay during the probe, which the compiler cannot see
    const refused = refusal as RelayRefusal | undefined
    if (!refused) return { ...result, ...(result.ok && { relayed: true }) }
    if (refused.hostRefused) return undefined
    return { ok: false, ...describeNetworkFailure(host, refused.message), details: refused.message }
  }

  if (options.blockedOrigin) {
    const relayed = await throughRelay()
    const blocked = `This page may not connect to ${options.blockedOrigin} (its security policy)`
    if (!relayed) {
      return {
        ok: false,
        problem: 'csp',
        summary: `${blocked}, and this app's server does not relay it. Allow it to test the server from this browser.`,
        message: { key: 'cspNoRelay', values: { origin: options.blockedOrigin } },
        blockedOrigin: options.blockedOrigin,
      }
    }
    return relayed.ok
      ? { ...relayed, note: `Through this app's server: ${blocked.charAt(0).toLowerCase()}${blocked.slice(1)}.`, noteMessage: { key: 'cspRelayed', values: { origin: options.blockedOrigin } } }
      : { ...relayed, blockedOrigin: options.blockedOrigin }
  }

  let failedDirectly = false
  const direct: typeof fetch = async (input, init) => {
    try {
      return await send(input, { ...init, credentials: 'omit' })
    }
    catch (error) {
      if (error instanceof TypeError && !init?.signal?.aborted) failedDirectly = true
      throw error
    }
  }
  const result = await probeMcpServer({ url: options.url, token: options.token, headers: options.headers, fetch: direct, timeoutMs, signal: options.signal })
  if (!failedDirectly) return result

  // an opaque answer to a no-cors request: the server is there, the browser may just not read its answers
  const reachable = await send(options.url, { mode: 'no-cors', credentials: 'omit', signal: AbortSignal.timeout(remaining()) }).then(() => true, () => false)
  const relayed = await throughRelay()
  if (reachable) {
    const cors = `${host} does not allow this app's origin (CORS), so the browser cannot read its answers`
    if (relayed?.ok) return { ...relayed, note: `Through this app's server: ${cors}.`, noteMessage: { key: 'corsRelayed', values: { host } } }
    if (relayed) return relayed
    const origin = globalThis.location?.origin ?? 'this app\'s origin'
    return {
      ok: false,
      problem: 'cors',
      summary: `${cors}, and this app's server does not relay it. Its owner can allow ${origin}, or this app's operator can add ${host} to NUXT_MCP_ALLOWED_HOSTS.`,
      message: { key: 'corsNoRelay', values: { host, origin } },
    }
  }
  if (relayed && !relayed.ok) return relayed
  if (relayed?.ok) return { ...relayed, note: 'Through this app\'s server: the browser could not reach it directly.', noteMessage: { key: 'directFailedRelayed' } }
  return { ok: false, problem: 'unreachable', summary: `${host} could not be reached: the name does not resolve, nothing answers there, or its certificate is not trusted (the browser does not say which).`, message: { key: 'unreachableBrowser', values: { host } } }
}
