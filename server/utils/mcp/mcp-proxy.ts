/**
 * The app's relay to MCP servers that a browser cannot reach itself (no CORS for the app's origin, or not in the
 * page's Content-Security-Policy). Only hosts the operator lists in NUXT_MCP_ALLOWED_HOSTS; the address is resolved
 * once and the connection pinned to it; redirects are refused; request and response sizes are capped; event streams
 * are relayed as they come with an idle deadline; the MCP session header passes both ways.
 */
import type { H3Event } from 'h3'
import { isAllowedHost, parseAllowedHosts } from '../net/allowed-hosts'
import { readCappedBody } from '../net/read-capped-body'
import { resolvePublicAddress } from '../net/resolve-public-address'
import type { HostResolver } from '../net/resolve-public-address'
import { readBoundedBody } from '../http/read-bounded-body'
import { TOOL_BODY_LIMIT_BYTES } from '../http/request-limits'
import { relayMcpStream } from './mcp-proxy-relay'
import { sendPinnedRequest } from './mcp-upstream-request'
import type { CodedParams } from '#shared/errors/coded-text'
import type { ServerMessageCode } from '#shared/errors/server-messages'
import { userError } from '../http/user-error'

export interface McpProxyOptions {
  /** NUXT_MCP_ALLOWED_HOSTS: `host` or `host:port` entries, comma-separated. Empty turns the relay off. */
  allowedHosts: unknown
  /** Longest wait for the answer's head and between bytes of a stream. @default 60_000 */
  idleTimeoutMs?: number
  /** Largest JSON answer relayed. @default 4 MiB */
  maxResponseBytes?: number
  /** Most bytes of one event stream. @default 64 MiB */
  maxStreamBytes?: number
  /** @default the system resolver */
  resolve?: HostResolver
}

/** Request headers an MCP client sends that the server needs; nothing else (cookies stay with the app). */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']
/** Response headers the browser's client reads. */
const RELAYED_RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'www-authenticate']
const METHODS = new Set(['GET', 'POST', 'DELETE'])

function refuse(statusCode: number, code: ServerMessageCode, params: CodedParams = {}): never {
  throw userError(statusCode, statusCode === 403 ? 'Forbidden' : 'Bad Gateway', code, params)
}

/** The target URL of a relay request (`?url=`), checked: absolute http(s), no credentials, on the allow-list. */
export function checkMcpTarget(target: unknown, allowedHosts: readonly string[]): URL {
  if (allowedHosts.length === 0) refuse(403, 'server.relay.off')
  let url: URL
  try {
    url = new URL(String(target ?? ''))
  }
  catch {
    throw userError(400, 'Bad Request', 'server.relay.needsUrl')
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw userError(400, 'Bad Request', 'server.relay.plainUrlOnly')
  }
  if (!isAllowedHost(url, allowedHosts)) refuse(403, 'server.relay.hostNotAllowed', { host: url.host })
  return url
}

/** Relays one MCP request (GET, POST or DELETE) to the server in `?url=` and its answer back. */
export async function relayMcpRequest(event: H3Event, options: McpProxyOptions): Promise<string | undefined> {
  const { idleTimeoutMs = 60_000, maxResponseBytes = 4 * 1024 * 1024, maxStreamBytes = 64 * 1024 * 1024 } = options
  const allowedHosts = parseAllowedHosts(options.allowedHosts)
  const url = checkMcpTarget(getQuery(event).url, allowedHosts)
  if (!METHODS.has(event.method)) throw userError(405, 'Method Not Allowed', 'server.relay.methods')
  const body = event.method === 'POST' ? await readBoundedBody(event, TOOL_BODY_LIMIT_BYTES) : undefined

  const headers: Record<string, string> = { 'user-agent': 'Plugboard MCP relay' }
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = getRequestHeader(event, name)
    if (value) headers[name] = value
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))

  const abort = new AbortController()
  event.node.res.on('close', () => abort.abort())
  const deadline = setTimeout(() => abort.abort(new Error(`no answer within ${Math.round(idleTimeoutMs / 1000)} s`)), idleTimeoutMs)
  let upstream
  try {
    // the allow-list names the host; the address it resolves to now is the one connected to (no rebinding)
    const pinned = await resolvePublicAddress(url, { allowedHosts, resolve: options.resolve, signal: abort.signal })
    upstream = await sendPinnedRequest(url, pinned, { method: event.method, headers, body, signal: abort.signal })
  }
  catch (error) {
    if (event.node.res.destroyed) return undefined
    const reason = abort.signal.aborted ? (abort.signal.reason as Error)?.message : (error as Error).message
    throw userError(abort.signal.aborted ? 504 : 502, 'Bad Gateway', 'server.relay.unreachable', { host: url.host, reason })
  }
  finally {
    clearTimeout(deadline)
  }

  const status = upstream.statusCode ?? 502
  if (status >= 300 && status < 400) {
    upstream.destroy()
    refuse(502, 'server.relay.redirect', { status })
  }
  const response = event.node.res
  response.statusCode = status
  response.setHeader('cache-control', 'no-store')
  for (const name of RELAYED_RESPONSE_HEADERS) {
    const value = upstream.headers[name]
    if (typeof value === 'string') response.setHeader(name, value)
  }
  if (String(upstream.headers['content-type'] ?? '').includes('text/event-stream')) {
    response.flushHeaders()
    return relayMcpStream(upstream, response, { idleTimeoutMs, maxBytes: maxStreamBytes })
  }
  // a JSON answer is small: it gets one deadline for all of it, so a server that stalls mid-body cannot hold the request
  const bodyDeadline = setTimeout(() => upstream.destroy(new Error(`the answer did not finish within ${Math.round(idleTimeoutMs / 1000)} s`)), idleTimeoutMs)
  let answer
  try {
    answer = await readCappedBody(upstream, maxResponseBytes)
  }
  catch (error) {
    if (response.destroyed) return undefined
    response.removeHeader('content-type')
    refuse(502, 'server.relay.brokeOff', { reason: (error as Error).message })
  }
  finally {
    clearTimeout(bodyDeadline)
  }
  if (answer.truncated) {
    response.removeHeader('content-type')
    refuse(502, 'server.relay.tooLarge', { megabytes: Math.round(maxResponseBytes / (1024 * 1024)) })
  }
  response.end(answer.bytes)
  return undefined
}
