/**
 * Speaking the stateless MCP revision (2026-07-28) on the SDK we have, without losing older servers.
 *
 * The SDK's `Client` always opens with the stateful `initialize` handshake (revisions up to 2025-11-25). This
 * transport sits between it and the HTTP transport: when the client sends `initialize`, it first asks the server
 * `server/discover` (the stateless revision's probe). A server that offers 2026-07-28 gets the stateless lifecycle:
 * the handshake is answered here from the discover result, `notifications/initialized` is never sent, and every
 * request carries the per-request `_meta` envelope and the standard `Mcp-Method` / `Mcp-Name` headers. Any other
 * answer (method not found, "not initialized", an unusable reply) means an older server, and the original
 * `initialize` goes out unchanged, so nothing changes for them. Questions a stateless server asks mid-call come back
 * as the server requests the app already answers (`mcp-input-rounds.ts`). An authorization challenge is not an answer about the
 * revision: it fails the connect exactly as the handshake would, and signing in starts it again.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike, Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import { createInputRounds } from './mcp-input-rounds'
import { paramHeadersFor, readToolHeaders } from './mcp-param-headers'
import type { ParamHeaderMap } from './mcp-param-headers'
import { isRecord } from '../types/is-record'
import { parseJson } from '../security/parse-json'

/** The stateless revision this client speaks when a server offers it. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28'
/** The spec's UnsupportedProtocolVersion error: its data names the versions the server does support. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022
const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion'
const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo'
const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities'
/** A server that leaves the probe unanswered this long is taken for an older one. */
const PROBE_TIMEOUT_MS = 15_000
/** Requests whose `Mcp-Name` header mirrors a field of their params. */
const NAME_FIELD: Record<string, 'name' | 'uri'> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' }

export type McpProtocolEra = 'modern' | 'legacy'

interface HttpTransport extends Transport {
  setProtocolVersion?: (version: string) => void
}

type ProbeOutcome = { kind: 'result', result: Record<string, unknown> } | { kind: 'error', code: number, data?: unknown }

/** The JSON-RPC error inside an HTTP error's body, when the server sent one. */
function rpcErrorInBody(error: StreamableHTTPError): ProbeOutcome | undefined {
  const body = /\{[\s\S]*\}$/.exec(error.message)?.[0]
  try {
    const parsed = body ? parseJson(body) as { error?: { code?: unknown, data?: unknown } } | undefined : undefined
    return typeof parsed?.error?.code === 'number' ? { kind: 'error', code: parsed.error.code, data: parsed.error.data } : undefined
  }
  catch {
    return undefined
  }
}

/**
 * Adds the standard request headers of the stateless revision (`Mcp-Method`, and `Mcp-Name` for the calls that
 * name something) to the POSTs `era()` says are modern. Older servers never see them: in a browser a header the
 * server's CORS policy does not list fails the request before it is sent.
 */
export function withStandardMcpHeaders(fetchImpl: FetchLike, era: () => McpProtocolEra | 'probing', paramHeaders?: () => ParamHeaderMap): FetchLike {
  return (url, init) => {
    if (era() === 'legacy' || init?.method !== 'POST' || typeof init.body !== 'string') return fetchImpl(url, init)
    let message: { method?: unknown, params?: Record<string, unknown> } | undefined
    try {
      message = JSON.parse(init.body) as typeof message
    }
    catch {
      return fetchImpl(url, init)
    }
    if (typeof message?.method !== 'string') return fetchImpl(url, init)
    const headers = new Headers(init.headers)
    headers.set('mcp-method', message.method)
    const nameField = NAME_FIELD[message.method]
    const name = nameField ? message.params?.[nameField] : undefined
    if (typeof name === 'string') headers.set('mcp-name', name)
    if (message.method === 'tools/call' && paramHeaders) {
      for (const [header, value] of Object.entries(paramHeadersFor(paramHeaders(), name, message.params?.arguments))) headers.set(header, value)
    }
    return fetchImpl(url, { ...init, headers })
  }
}

export interface EraNegotiatingTransport<Inner extends HttpTransport> extends Transport {
  /** The HTTP transport underneath (to end its session). */
  readonly inner: Inner
  /** What was agreed once `initialize` has been answered. */
  readonly era: McpProtocolEra | 'probing'
  /** The listed tools' parameters to mirror into headers (stateless servers only). */
  readonly paramHeaders: ParamHeaderMap
}

/**
 * Wraps `inner` (a Streamable HTTP transport) so the SDK client negotiates the revision as described above.
 */
export function createEraNegotiatingTransport<Inner extends HttpTransport>(inner: Inner): EraNegotiatingTransport<Inner> {
  let era: McpProtocolEra | 'probing' = 'probing'
  let envelope: Record<string, unknown> = {}
  let probeCounter = 0
  const waiting = new Map<string, (outcome: ProbeOutcome) => void>()
  const paramHeaders: ParamHeaderMap = new Map()

  const transport: EraNegotiatingTransport<Inner> & { setProtocolVersion: (version: string) => void } = {
    inner,
    paramHeaders,
    get era() {
      return era
    },
    get sessionId() {
      return inner.sessionId
    },
    start: () => inner.start(),
    close: () => inner.close(),
    setProtocolVersion(version: string) {
      // the SDK sets the handshake's version after `initialize`; a stateless connection keeps its own
      if (era !== 'modern') inner.setProtocolVersion?.(version)
    },
    async send(message: JSONRPCMessage, options?: TransportSendOptions) {
      if (era === 'probing' && 'method' in message && message.method === 'initialize' && 'id' in message) {
        const answered = await negotiate(message)
        if (answered) return
        era = 'legacy'
        return inner.send(message, options)
      }
      if (era !== 'modern') return inner.send(message, options)
      // the stateless revision has no handshake to finish
      if ('method' in message && message.method === 'notifications/initialized') return
      if (rounds.fromClient(message)) return
      if ('method' in message && 'id' in message) {
        const params = message.params ?? {}
        const enveloped = { ...message, params: { ...params, _meta: { ...params._meta, ...envelope } } }
        rounds.track(enveloped)
        return inner.send(enveloped, options)
      }
      return inner.send(message, options)
    },
  }

  inner.onclose = () => transport.onclose?.()
  inner.onerror = error => transport.onerror?.(error)
  inner.onmessage = (message, extra) => {
    const id = 'id' in message ? String(message.id) : undefined
    const waiter = id === undefined ? undefined : waiting.get(id)
    if (waiter && ('result' in message || 'error' in message)) {
      waiting.delete(id!)
      waiter('result' in message ? { kind: 'result', result: message.result } : { kind: 'error', code: message.error.code, data: message.error.data })
      return
    }
    if (era === 'modern' && 'result' in message && isRecord(message.result) && Array.isArray(message.result.tools)) {
      message = { ...message, result: readToolHeaders(message.result, paramHeaders) }
    }
    if (era === 'modern' && rounds.fromServer(message)) return
    transport.onmessage?.(message, extra)
  }
  const rounds = createInputRounds({
    send: message => inner.send(message),
    deliver: message => transport.onmessage?.(message),
  })

  async function probe(version: string): Promise<ProbeOutcome | undefined> {
    const id = `plugboard-discover-${++probeCounter}`
    const reply = new Promise<ProbeOutcome>(resolve => waiting.set(id, resolve))
    inner.setProtocolVersion?.(version)
    try {
      await inner.send({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: { ...envelope, [META_PROTOCOL_VERSION]: version } } })
    }
    catch (error) {
      waiting.delete(id)
      if (error instanceof UnauthorizedError) throw error
      if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)) throw error
      if (error instanceof StreamableHTTPError) return rpcErrorInBody(error)
      // a failed fetch (unreachable, or a browser's CORS refusal): the handshake will say which, in its own words
      return undefined
    }
    let stopWaiting = () => {}
    const silence = new Promise<undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), PROBE_TIMEOUT_MS)
      stopWaiting = () => clearTimeout(timer)
    })
    const outcome = await Promise.race([reply, silence])
    stopWaiting()
    waiting.delete(id)
    return outcome
  }

  /** Answers `initialize` from `server/discover` when the server speaks the stateless revision; false otherwise. */
  async function negotiate(initialize: JSONRPCRequest): Promise<boolean> {
    const params = initialize.params ?? {}
    envelope = { [META_PROTOCOL_VERSION]: MODERN_PROTOCOL_VERSION, [META_CLIENT_INFO]: params.clientInfo, [META_CLIENT_CAPABILITIES]: params.capabilities ?? {} }
    let outcome = await probe(MODERN_PROTOCOL_VERSION)
    // a server may turn down the first version even when it supports it, naming the ones it takes: try once more
    if (outcome?.kind === 'error' && outcome.code === UNSUPPORTED_PROTOCOL_VERSION && offers(outcome.data, 'supported')) outcome = await probe(MODERN_PROTOCOL_VERSION)
    // the handshake goes out as it always did, with no version header
    inner.setProtocolVersion?.(undefined as unknown as string)
    if (outcome?.kind !== 'result' || !offers(outcome.result, 'supportedVersions') || !isRecord(outcome.result.capabilities)) return false
    era = 'modern'
    inner.setProtocolVersion?.(MODERN_PROTOCOL_VERSION)
    const { capabilities, serverInfo, instructions } = outcome.result
    // the SDK client only accepts handshake versions it knows; what goes on the wire is MODERN_PROTOCOL_VERSION
    const result = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, serverInfo: isRecord(serverInfo) ? serverInfo : { name: 'unnamed', version: '' }, ...(typeof instructions === 'string' ? { instructions } : {}) }
    queueMicrotask(() => transport.onmessage?.({ jsonrpc: '2.0', id: initialize.id, result }))
    return true
  }

  function offers(value: unknown, field: string): boolean {
    const versions = isRecord(value) ? value[field] : undefined
    return Array.isArray(versions) && versions.includes(MODERN_PROTOCOL_VERSION)
  }

  return transport
}
