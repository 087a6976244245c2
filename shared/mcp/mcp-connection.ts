/**
 * One MCP server, reached over Streamable HTTP with the SDK's client: connects, lists its tools and prompts (checked
 * and bounded), follows `notifications/tools/list_changed`, calls tools (with progress and the server's questions to
 * the user), gets prompts, lists and reads resources, and reconnects with a bounded backoff when the
 * connection drops (the server restarted, the network went away). Used by the browser (settings) and the server
 * (operator servers) alike: no Vue, no Nitro.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { CallToolResultSchema, ElicitRequestSchema, PromptListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod/v4'
import { LinearJsonSchemaValidator } from './linear-json-schema-validator'
import { createMcpRunningCalls } from './mcp-call-hooks'
import type { McpCallHooks } from './mcp-call-hooks'
import { MAX_MCP_LIST_PAGES, MAX_MCP_LISTED_TOOLS, MAX_MCP_PROMPTS, MAX_MCP_RESOURCES, MCP_CALL_MAX_MS } from './mcp-limits'
import { checkMcpPrompts } from './mcp-prompts'
import type { McpPromptEntry } from './mcp-prompts'
import { checkMcpTools, skippedToolsNote } from './mcp-tool-list'
import { explainMcpError } from './mcp-error-text'
import { McpSignInError } from './oauth/mcp-sign-in-error'
import { createEraNegotiatingTransport, withStandardMcpHeaders } from './mcp-protocol-era'
import type { EraNegotiatingTransport } from './mcp-protocol-era'
import type { McpErrorText } from './mcp-error-text'
import { joinCodedText } from '../errors/coded-text'
import type { CodedText } from '../errors/coded-text'
import { mcpText } from './mcp-messages'
import type { McpToolEntry, SkippedMcpTool } from './mcp-tool-list'

export type McpConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'error' | 'closed'

/** What the settings show about one server. */
export interface McpConnectionState {
  status: McpConnectionStatus
  /** Why it is not connected ('reconnecting', 'error'), or a note about skipped tools ('connected'). */
  message?: string
  /** `message` as coded sentences, for the app to show in the user's language (absent: show `message`). */
  messageText?: CodedText[]
  /** The failure as it came (status, the server's or relay's answer), for a "Details" disclosure. */
  details?: string
  tools: McpToolEntry[]
  skipped: SkippedMcpTool[]
  /** The server's prompts (offered as slash commands), when it has any. */
  prompts?: McpPromptEntry[]
  /** The server lists resources (`resources/list`). */
  hasResources?: boolean
  /** Reconnection attempts since the connection was last up. */
  attempt: number
}

export interface McpReconnectOptions {
  /** @default 1_000 */
  initialDelayMs?: number
  /** @default 30_000 */
  maxDelayMs?: number
  /** Attempts before the connection gives up and stays in 'error' (Retry starts again). @default 8 */
  maxAttempts?: number
}

export interface McpConnectionOptions {
  url: string
  /** Prefix of the registry names (`prefix__tool`). */
  prefix: string
  /** Sent with every request, e.g. `{ authorization: 'Bearer …' }`. */
  headers?: Record<string, string>
  /** @default globalThis.fetch */
  fetch?: FetchLike
  /** OAuth for a server that asks for a sign-in (`shared/mcp/oauth`); its tokens are sent instead of `headers`' . */
  authProvider?: OAuthClientProvider
  /** Registry names other tools hold, so this server's names avoid them. @default none */
  takenNames?: () => ReadonlySet<string>
  reconnect?: McpReconnectOptions
  /** Longest wait for one request (connect, list) in ms, and for a call the longest silence (progress restarts it). @default 60_000 */
  requestTimeoutMs?: number
  /** Declare `elicitation` (form and URL) so the server may ask the user during a call (`callTool`'s `onElicit`). @default false */
  elicitation?: boolean
  /** Called after every change of the state (status, tools). */
  onChange?: (state: McpConnectionState) => void
}

export interface McpConnection {
  readonly state: McpConnectionState
  /** Connects (again). Resolves when connected or when the attempt failed (see `state`). */
  connect: () => Promise<void>
  /**
   * Calls a tool by the server's name for it. Throws a protocol or network error; a result may be `isError`.
   * `hooks` receive the call's progress and the server's questions to the user.
   */
  callTool: (mcpName: string, args: Record<string, unknown>, signal?: AbortSignal, hooks?: McpCallHooks) => Promise<unknown>
  /** `prompts/get` by the server's name for the prompt; the raw result (`readMcpPromptMessages` reads it). */
  getPrompt: (mcpName: string, args: Record<string, string>, signal?: AbortSignal) => Promise<unknown>
  /** `resources/list`, every page up to the limits; the raw entries (`checkMcpResources` reads them). */
  listResources: (signal?: AbortSignal) => Promise<unknown[]>
  /** `resources/read` (a resource to attach, an MCP App's `ui://` HTML); the raw result (`readMcpResourceText`, `readMcpAppResource` read it). */
  readResource: (uri: string, signal?: AbortSignal) => Promise<unknown>
  /**
   * Ends the session on the server (DELETE with its `Mcp-Session-Id`, with the credentials it was opened with) and
   * drops the client; `connect()` opens a new one. Sign-out calls it before the tokens are forgotten.
   */
  endSession: () => Promise<void>
  /** Disconnects for good (ends the session on the server when it can). */
  close: () => Promise<void>
}

/** `tools/list` as the app reads it: tools are checked one by one later, so one bad tool cannot hide the others. */
const LooseListToolsResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() })
const LooseListPromptsResult = z.looseObject({ prompts: z.array(z.unknown()), nextCursor: z.string().optional() })
const LooseListResourcesResult = z.looseObject({ resources: z.array(z.unknown()), nextCursor: z.string().optional() })
const LooseResult = z.looseObject({})

/** An HTTP answer that will not change by asking again (bad token, forbidden, not an MCP endpoint). */
function isPermanent(error: unknown): boolean {
  // a sign-in is needed: asking again would only start another authorization request
  if (error instanceof UnauthorizedError) return true
  // a sign-in refused for safety (a server naming another issuer) stays refused until its operator fixes it
  if (error instanceof McpSignInError) return true
  const code = error instanceof StreamableHTTPError ? error.code : undefined
  return code !== undefined && code >= 400 && code < 500 && ![404, 408, 429].includes(code)
}

/** Creates a connection (not yet connected: call `connect()`). */
export function createMcpConnection(options: McpConnectionOptions): McpConnection {
  const { initialDelayMs = 1_000, maxDelayMs = 30_000, maxAttempts = 8 } = options.reconnect ?? {}
  const timeout = options.requestTimeoutMs ?? 60_000
  let state: McpConnectionState = { status: 'connecting', tools: [], skipped: [], attempt: 0 }
  let client: Client | undefined
  let connecting: Promise<void> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let checkingDrop = false
  /** The connection was up and dropped: every failed attempt until it is back says so, not only the first. */
  let lostConnection = false
  const running = createMcpRunningCalls({ idleMs: timeout })

  function update(patch: Partial<McpConnectionState>) {
    state = { ...state, ...patch }
    options.onChange?.(state)
  }

  async function listTools(current: Client): Promise<void> {
    const listed: unknown[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await current.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LooseListToolsResult, { timeout })
      listed.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor && ++pages < MAX_MCP_LIST_PAGES && listed.length < MAX_MCP_LISTED_TOOLS)
    const checked = checkMcpTools(listed.slice(0, MAX_MCP_LISTED_TOOLS), options.prefix, options.takenNames?.() ?? new Set())
    if (cursor) checked.skipped.push({ name: '…', reason: `the listing went on past ${listed.length} tools and was not read further` })
    if (current !== client) return
    update({ tools: checked.tools, skipped: checked.skipped, ...skippedToolsNote(checked.skipped), details: undefined })
  }

  /** The prompts of a server that has them (a failure to list them leaves the tools working). */
  async function listPrompts(current: Client): Promise<void> {
    if (!current.getServerCapabilities()?.prompts) return
    const listed: unknown[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await current.request({ method: 'prompts/list', params: cursor ? { cursor } : {} }, LooseListPromptsResult, { timeout })
      listed.push(...page.prompts)
      cursor = page.nextCursor
    } while (cursor && ++pages < MAX_MCP_LIST_PAGES && listed.length < MAX_MCP_PROMPTS)
    if (current === client) update({ prompts: checkMcpPrompts(listed, options.prefix) })
  }

  function scheduleReconnect(reason: McpErrorText) {
    if (state.status === 'closed') return
    const attempt = state.attempt + 1
    if (attempt > maxAttempts) {
      const messageText = [mcpText('mcp.gaveUp', { attempts: maxAttempts }), reason.text]
      update({ status: 'error', message: joinCodedText(messageText), messageText, details: reason.details })
      return
    }
    const messageText = lostConnection ? [mcpText('mcp.dropped'), reason.text] : [reason.text]
    update({ status: 'reconnecting', message: joinCodedText(messageText), messageText, details: reason.details, attempt })
    clearTimeout(timer)
    timer = setTimeout(() => void connect(), Math.min(initialDelayMs * 2 ** (attempt - 1), maxDelayMs))
  }

  /** An error on the transport (the notification stream broke...): reconnect unless the server still answers. */
  async function onTransportError(source: Client) {
    if (source !== client || state.status !== 'connected' || checkingDrop) return
    checkingDrop = true
    try {
      await source.ping({ timeout: Math.min(timeout, 5_000) })
    }
    catch (error) {
      if (source === client && state.status === 'connected') dropped(error)
    }
    finally {
      checkingDrop = false
    }
  }

  function dropped(error: unknown) {
    const old = client
    client = undefined
    void old?.close().catch(() => {})
    lostConnection = true
    scheduleReconnect(explainMcpError(error))
  }

  async function open(): Promise<void> {
    // Sampling and roots are not implemented, so they are not declared.
    const capabilities = options.elicitation ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}
    const current = new Client({ name: 'plugboard', version: '0.1.0' }, { capabilities, jsonSchemaValidator: new LinearJsonSchemaValidator() })
    if (options.elicitation) current.setRequestHandler(ElicitRequestSchema, (request, extra) => running.elicit(request.params, extra.signal))
    // the revision is agreed per connection: a server may be upgraded between two
    const http = new StreamableHTTPClientTransport(new URL(options.url), {
      fetch: withStandardMcpHeaders(options.fetch ?? ((url, init) => fetch(url, init)), () => transport.era, () => transport.paramHeaders),
      authProvider: options.authProvider,
      requestInit: { headers: options.headers },
      // The notification stream retries a little by itself; past that, the whole connection starts again.
      reconnectionOptions: { initialReconnectionDelay: 1_000, maxReconnectionDelay: 5_000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
    })
    const transport: EraNegotiatingTransport<StreamableHTTPClientTransport> = createEraNegotiatingTransport(http)
    current.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      try {
        await listTools(current)
      }
      catch (error) {
        const reason = explainMcpError(error)
        const messageText = [mcpText('mcp.toolListFailed'), reason.text]
        if (current === client) update({ message: joinCodedText(messageText), messageText, details: reason.details })
        void onTransportError(current)
      }
    })
    current.setNotificationHandler(PromptListChangedNotificationSchema, () => listPrompts(current).catch(() => {}))
    current.onerror = () => void onTransportError(current)
    client = current
    update({ status: state.attempt > 0 ? 'reconnecting' : 'connecting' })
    try {
      await current.connect(transport, { timeout })
      await listTools(current)
      await listPrompts(current).catch(() => {})
      if (current !== client) return
      lostConnection = false
      update({ status: 'connected', attempt: 0, hasResources: !!current.getServerCapabilities()?.resources })
    }
    catch (error) {
      if (current !== client) return
      client = undefined
      void current.close().catch(() => {})
      const reason = explainMcpError(error)
      if (isPermanent(error)) update({ status: 'error', message: reason.message, messageText: [reason.text], details: reason.details })
      else scheduleReconnect(reason)
    }
  }

  function connect(): Promise<void> {
    if (state.status === 'closed') return Promise.resolve()
    clearTimeout(timer)
    // a connection that gave up starts counting again when asked to connect (Retry)
    if (state.status === 'error') state = { ...state, attempt: 0 }
    return (connecting ??= open().finally(() => {
      connecting = undefined
    }))
  }

  async function callTool(mcpName: string, args: Record<string, unknown>, signal?: AbortSignal, hooks: McpCallHooks = {}): Promise<unknown> {
    if (state.status !== 'connected' && state.status !== 'closed') await connect()
    const current = client
    if (!current || state.status !== 'connected') throw new Error(`the MCP server is not connected${state.message ? `: ${state.message}` : ''}`)
    // the call's own clock (idle since the last progress, paused while the user is asked) replaces the SDK's timeout
    const run = running.begin(hooks, signal)
    try {
      return await current.callTool({ name: mcpName, arguments: args }, CallToolResultSchema, { signal: run.signal, timeout: MCP_CALL_MAX_MS, onprogress: run.onprogress })
    }
    catch (error) {
      // a network failure or an unknown session: find out whether the connection is gone, for the next call
      if (!signal?.aborted && !(error instanceof z.ZodError) && (error instanceof TypeError || error instanceof StreamableHTTPError)) void onTransportError(current)
      throw error
    }
    finally {
      run.end()
    }
  }

  /** The connected client, connecting first when needed. */
  async function connected(): Promise<Client> {
    if (state.status !== 'connected' && state.status !== 'closed') await connect()
    if (!client || state.status !== 'connected') throw new Error(`the MCP server is not connected${state.message ? `: ${state.message}` : ''}`)
    return client
  }

  async function getPrompt(mcpName: string, args: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    return (await connected()).request({ method: 'prompts/get', params: { name: mcpName, arguments: args } }, LooseResult, { signal, timeout })
  }

  async function listResources(signal?: AbortSignal): Promise<unknown[]> {
    const current = await connected()
    const listed: unknown[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await current.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, LooseListResourcesResult, { signal, timeout })
      listed.push(...page.resources)
      cursor = page.nextCursor
    } while (cursor && ++pages < MAX_MCP_LIST_PAGES && listed.length < MAX_MCP_RESOURCES)
    return listed
  }

  // read loosely: the callers check the contents themselves (readMcpResourceText, readMcpAppResource), so one bad
  // field does not hide the rest
  async function readResource(uri: string, signal?: AbortSignal): Promise<unknown> {
    return (await connected()).request({ method: 'resources/read', params: { uri } }, LooseResult, { signal, timeout })
  }

  /** Ends `old`'s session on the server (DELETE); a server that is gone does not hold it up. */
  async function terminate(old: Client | undefined) {
    if (!old) return
    const transport = old.transport as EraNegotiatingTransport<StreamableHTTPClientTransport> | undefined
    await transport?.inner.terminateSession().catch(() => {})
    await old.close().catch(() => {})
  }

  async function endSession() {
    clearTimeout(timer)
    const old = client
    client = undefined
    if (state.status !== 'closed') update({ status: 'connecting', attempt: 0 })
    await terminate(old)
  }

  async function close() {
    clearTimeout(timer)
    const old = client
    client = undefined
    update({ status: 'closed', message: undefined, messageText: undefined, details: undefined })
    await terminate(old)
  }

  return {
    get state() {
      return state
    },
    connect,
    callTool,
    getPrompt,
    listResources,
    readResource,
    endSession,
    close,
  }
}
