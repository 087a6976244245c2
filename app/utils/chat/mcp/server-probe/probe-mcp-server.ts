/**
 * "Test server": a short MCP exchange that says in plain words what is wrong with a server — initialize,
 * tools/list, and on a 401 the sign-in it asks for (WWW-Authenticate and RFC 9728's protected resource metadata).
 * Pure apart from the fetch it is given, so Node tests run it against real and hostile servers; the browser's
 * routes (direct, the relay, the page's policy) are `test-mcp-server.ts`'s.
 */
import { isRecord } from '#shared/types/is-record'
import { describeNetworkFailure, errorText } from './network-failure'
import type { McpProbeResult } from './probe-types'
import { readProbeAnswer } from './read-probe-answer'
import { discoverAuthorization } from './discover-authorization'

/** The protocol revision the probe asks for; a server answers with the one it speaks. */
export const PROBE_PROTOCOL_VERSION = '2025-06-18'

export interface ProbeOptions {
  /** The server's Streamable HTTP URL. */
  url: string
  /** Sent as `Authorization: Bearer …` when given. */
  token?: string
  /** Sent with every request, as the server's connection sends them (an API key header...); `token` wins over an `authorization` here. */
  headers?: Record<string, string>
  /** The fetch to use (the browser's route to the server). @default globalThis.fetch */
  fetch?: typeof fetch
  /** The whole probe's time. @default 10 000 */
  timeoutMs?: number
  /** Most bytes read of one answer. @default 1 MiB */
  maxBytes?: number
  /** Ends the probe early (the dialog closed). */
  signal?: AbortSignal
}

/** Thrown inside the probe to end it with a result. */
class Verdict extends Error {
  constructor(readonly result: McpProbeResult) {
    super(result.summary)
  }
}

/** Runs the probe. Never throws: every failure is a result with a problem and a summary. */
export async function probeMcpServer(options: ProbeOptions): Promise<McpProbeResult> {
  const { url, token, timeoutMs = 10_000, maxBytes = 1024 * 1024 } = options
  const credentials: Record<string, string> = { ...options.headers, ...(token && { authorization: `Bearer ${token}` }) }
  const send = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args))
  const host = new URL(url).host
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let sessionId: string | undefined
  let protocolVersion = PROBE_PROTOCOL_VERSION
  const seconds = Math.round(timeoutMs / 1000)
  const tooSlow = () => ({ summary: `${host} did not answer within ${seconds} s.`, message: { key: 'timeout', values: { host, seconds } } })

  async function post(body: Record<string, unknown>): Promise<Response> {
    try {
      return await send(url, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          'accept': 'application/json, text/event-stream',
          ...credentials,
          ...(sessionId && { 'mcp-session-id': sessionId }),
          ...(body.method !== 'initialize' && { 'mcp-protocol-version': protocolVersion }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      })
    }
    catch (error) {
      if (timeout.aborted) throw new Verdict({ ok: false, problem: 'timeout', ...tooSlow() })
      if (signal.aborted) throw error
      const failure = describeNetworkFailure(host, errorText(error))
      throw new Verdict({ ok: false, ...failure, details: errorText(error) })
    }
  }

  async function request(id: number, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await post({ id, method, params })
    if (response.status === 401 || response.status === 403) {
      const authorization = await discoverAuthorization(url, response, { fetch: send, signal, maxBytes })
      const at = authorization.authorizationServers[0] ? new URL(authorization.authorizationServers[0]).host : undefined
      const where = at ? ` (at ${at})` : ''
      throw new Verdict({
        ok: false,
        problem: 'auth',
        summary: credentials.authorization
          ? `This server refused the token (HTTP ${response.status}): it asks you to sign in${where}.`
          : `This server asks you to sign in${where}.`,
        message: {
          key: `${credentials.authorization ? 'tokenRefused' : 'asksSignIn'}${at ? 'At' : ''}`,
          values: { status: response.status, ...(at && { at }) },
        },
        details: [`HTTP ${response.status}`, response.headers.get('www-authenticate')].filter(Boolean).join('\n'),
        authorization,
      })
    }
    if (!response.ok) {
      const hint = response.status === 404 || response.status === 405 ? ' Check the path: MCP endpoints usually end in /mcp.' : ''
      throw new Verdict({ ok: false, problem: 'not-mcp', summary: `The server answered ${method} with HTTP ${response.status} ${response.statusText}`.trim() + `: not an MCP endpoint.${hint}`, message: { key: hint ? 'httpStatusPath' : 'httpStatus', values: { method, status: `${response.status} ${response.statusText}`.trim() } }, details: (await response.text().catch(() => '')).slice(0, 300) })
    }
    sessionId = response.headers.get('mcp-session-id') ?? sessionId
    const answer = await readProbeAnswer(response, id, maxBytes)
    if (answer.kind === 'not-mcp') throw new Verdict({ ok: false, problem: 'not-mcp', summary: answer.summary, message: answer.message, details: answer.details })
    const { message } = answer
    if (isRecord(message.error)) {
      throw new Verdict({ ok: false, problem: 'not-mcp', summary: `The server refused ${method}: ${String(message.error.message ?? 'no reason given')}`, message: { key: 'refusedMethod', values: { method, reason: String(message.error.message ?? 'no reason given') } }, details: JSON.stringify(message.error).slice(0, 300) })
    }
    if (!isRecord(message.result)) throw new Verdict({ ok: false, problem: 'not-mcp', summary: `The server's answer to ${method} has no result.`, message: { key: 'noResult', values: { method } } })
    return message.result
  }

  try {
    const initialized = await request(1, 'initialize', {
      protocolVersion: PROBE_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'plugboard-probe', version: '1.0.0' },
    })
    protocolVersion = typeof initialized.protocolVersion === 'string' ? initialized.protocolVersion : PROBE_PROTOCOL_VERSION
    const serverInfo = isRecord(initialized.serverInfo) ? initialized.serverInfo : {}
    // the server waits for this before it serves requests; its answer (202) carries nothing
    const note = await post({ method: 'notifications/initialized' })
    await note.body?.cancel().catch(() => {})
    const listed = await request(2, 'tools/list', {})
    const tools = Array.isArray(listed.tools) ? listed.tools.length : 0
    const serverName = typeof serverInfo.name === 'string' ? serverInfo.name : 'unnamed'
    const serverVersion = typeof serverInfo.version === 'string' ? serverInfo.version : undefined
    return {
      ok: true,
      summary: `OK: ${tools} ${tools === 1 ? 'tool' : 'tools'}${listed.nextCursor ? ' (first page)' : ''}, protocol ${protocolVersion}, server ${serverName}${serverVersion ? ` ${serverVersion}` : ''}`,
      message: {
        key: listed.nextCursor ? 'okFirstPage' : 'ok',
        values: { count: tools, protocol: protocolVersion, server: `${serverName}${serverVersion ? ` ${serverVersion}` : ''}` },
        count: tools,
      },
      tools,
      protocolVersion,
      serverName,
      serverVersion,
    }
  }
  catch (error) {
    if (error instanceof Verdict) return error.result
    if (timeout.aborted) return { ok: false, problem: 'timeout', ...tooSlow() }
    return { ok: false, problem: 'unreachable', summary: `The test stopped: ${errorText(error)}`, message: { key: 'stopped', values: { reason: errorText(error) } } }
  }
  finally {
    // the probe's session is of no further use: end it, without waiting
    if (sessionId) void send(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, ...credentials } }).catch(() => {})
  }
}
