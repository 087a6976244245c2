/**
 * The browser's MCP servers: the saved list, one connection each, and their tools in the tool registry under the
 * server's name (`server__tool`, category = the server's name, ask before running). Added and removed from
 * Settings; connected at start-up.
 */
import { shallowRef, watch } from 'vue'
import type { ShallowRef } from 'vue'
import type { McpConnection, McpConnectionState, McpReconnectOptions } from '#shared/mcp/mcp-connection'
import type { CodedText } from '#shared/errors/coded-text'
import { MCP_CALL_MAX_MS } from '#shared/mcp/mcp-limits'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import type { McpToolEntry } from '#shared/mcp/mcp-tool-list'
import type { McpPromptEntry } from '#shared/mcp/mcp-prompts'
import { mcpServerPrefix } from '#shared/mcp/mcp-tool-name'
import { blockedConnectOrigin } from '../provider/connect-permission'
import type { ToolRegistry } from '../registry/tool-registry-types'
import { createMcpBrowserFetch } from './mcp-browser-fetch'
import type { McpRoute } from './mcp-browser-fetch'
import { recordMcpResultImages } from './mcp-result-images'
import { mcpCallHooks } from './mcp-call-activity'
import { visibleToModel } from '#shared/mcp/apps/mcp-app-tool-ui'
import { removeMcpAppServer, setMcpAppServer } from '../mcp-apps/mcp-app-servers'
import type { McpAppServer } from '../mcp-apps/mcp-app-servers'
import { recordMcpAppOfCall } from '../mcp-apps/mcp-app-views'
import { useSavedMcpServers, validateMcpServerInput } from './mcp-server-settings'
import { withTokenRenewal } from '#shared/mcp/oauth/mcp-oauth-fetch'
import { forgetMcpSignIn, listenForSignInAnswers } from './mcp-oauth-browser'
import type { McpServerSignIn, McpSignInStatus } from './mcp-server-sign-in'
import type { McpServerInput, McpServerInputErrors, McpServerSetting } from './mcp-server-settings'
import { mcpText } from '#shared/mcp/mcp-messages'

/** One server as Settings shows it. */
export interface McpServerView {
  id: string
  name: string
  url: string
  hasToken: boolean
  status: McpConnectionState['status']
  message?: string
  /** `message` as coded sentences for the user's language, when it is only the connection's own. */
  messageText?: readonly CodedText[]
  /** The failure as it came, behind "Details". */
  details?: string
  route?: McpRoute
  /** The page's CSP does not allow the server's origin (so the browser cannot try it directly). */
  blockedOrigin?: string
  tools: Array<Pick<McpToolEntry, 'name' | 'mcpName' | 'description'>>
  /** Its prompts (slash commands `/server__prompt`). */
  prompts: readonly McpPromptEntry[]
  /** It lists resources that can be attached to a message. */
  hasResources: boolean
  /** OAuth: the server asks for a sign-in, or tokens are kept for it (none for a server with a pasted token). */
  signIn?: McpSignInStatus
  /** Why the last sign-in failed. */
  signInError?: string
}

export interface McpServerManagerOptions {
  registry: Pick<ToolRegistry, 'registerTool' | 'listTools'>
  storage: Storage | null
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** @default crypto.randomUUID */
  createId?: () => string
  /** Backoff of each connection (tests shorten it). @default the connection's */
  reconnect?: McpReconnectOptions
}

export interface McpServerManager {
  servers: Readonly<ShallowRef<readonly McpServerView[]>>
  /** Connects the saved servers (once). */
  start: () => void
  /** Adds, saves and connects a server; returns the form's errors instead when it cannot be added. */
  add: (input: McpServerInput) => McpServerInputErrors
  /** Disconnects, unregisters its tools and forgets it. */
  remove: (id: string) => Promise<void>
  /** Connects again now (after an error). */
  retry: (id: string) => void
  /** The connection of a server (prompts, resources), once its code has loaded. */
  connectionOf: (id: string) => McpConnection | undefined
  /** Opens the server's sign-in popup (call it in the click's turn). */
  signIn: (id: string) => void
  /** Forgets the server's OAuth tokens in this browser. */
  signOut: (id: string) => Promise<void>
  /**
   * What "Test server" sends for a saved server, as its connection would: the pasted token, or the access token of
   * its sign-in; `canSignIn` when the server may be signed in to (no pasted token).
   */
  probeCredentials: (id: string) => Promise<{ token?: string, canSignIn: boolean }>
}

/**
 * The executor's limit for an MCP call: the connection keeps the call's real clock (silence since the last progress,
 * paused while the user answers the server's question), so this is only the outer bound.
 */
const MCP_TOOL_TIMEOUT_MS = MCP_CALL_MAX_MS

interface Entry {
  setting: McpServerSetting
  /** Set once the MCP client's code has loaded (it is loaded on first use, not with the page). */
  connection?: McpConnection
  registered: Map<string, () => void>
  route?: McpRoute
  registrationNote?: CodedText
  /** OAuth sign-in, for a server added without a pasted token. */
  signIn?: McpServerSignIn
}

/**
 * The coded sentences of a server's status line with the registration note after them; undefined (the line shown as
 * its English) when the connection's message has no code.
 */
function noteAfter(state: { message?: string, messageText?: CodedText[] } | undefined, note: CodedText | undefined): CodedText[] | undefined {
  if (state?.message && !state.messageText) return undefined
  const parts = [...(state?.messageText ?? []), ...(note ? [note] : [])]
  return parts.length > 0 ? parts : undefined
}

export function createMcpServerManager(options: McpServerManagerOptions): McpServerManager {
  const entries = new Map<string, Entry>()
  const servers = shallowRef<readonly McpServerView[]>([])
  let started = false

  function publish() {
    servers.value = [...entries.values()].map(({ setting, connection, route, registrationNote, signIn }) => ({
      id: setting.id,
      name: setting.name,
      url: setting.url,
      hasToken: !!setting.token,
      status: connection?.state.status ?? 'connecting',
      message: [connection?.state.message, registrationNote?.message].filter(Boolean).join(' ') || undefined,
      messageText: noteAfter(connection?.state, registrationNote),
      details: connection?.state.details,
      route,
      blockedOrigin: blockedConnectOrigin(setting.url),
      tools: (connection?.state.tools ?? []).filter(tool => entries.get(setting.id)?.registered.has(tool.name)).map(({ name, mcpName, description }) => ({ name, mcpName, description })),
      prompts: connection?.state.status === 'connected' ? connection.state.prompts ?? [] : [],
      hasResources: connection?.state.status === 'connected' && !!connection.state.hasResources,
      signIn: signIn?.status(),
      signInError: signIn?.error(),
    }))
  }

  /** Registers the connection's current tools and drops the ones it no longer lists. */
  function syncTools(entry: Entry, connection: McpConnection) {
    const tools = connection.state.tools
    const current = new Set(tools.map(tool => tool.name))
    for (const [name, dispose] of entry.registered) {
      if (!current.has(name)) {
        dispose()
        entry.registered.delete(name)
      }
    }
    const refused: string[] = []
    const appServer: McpAppServer = { name: entry.setting.name, connection }
    for (const tool of tools) {
      // a tool for its app's interface only is never offered to the model (the app calls it through its card)
      if (entry.registered.has(tool.name) || !visibleToModel(tool.ui)) continue
      const uri = tool.ui?.resourceUri
      const onResult = uri
        ? (call: Parameters<typeof recordMcpAppOfCall>[0]['call'], result: unknown) => void recordMcpAppOfCall({ call, result, toolName: tool.name, uri, server: appServer })
        : undefined
      try {
        entry.registered.set(tool.name, options.registry.registerTool({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          ui: { label: tool.title || tool.mcpName, category: entry.setting.name, descriptionHint: tool.description?.slice(0, 200) ?? '' },
          icon: 'i-lucide-plug',
          // a server that gave up reconnecting is not offered to the model until Retry brings it back
          available: () => connection.state.status !== 'error',
          unavailableReason: `${entry.setting.name} is not connected (Settings → MCP servers)`,
          actsOutsideApp: true,
          approval: 'ask',
          timeoutMs: MCP_TOOL_TIMEOUT_MS,
        }, mcpToolHandler(connection, tool.mcpName, { onImages: recordMcpResultImages, callHooks: mcpCallHooks(entry.setting.name), onResult })))
      }
      catch (error) {
        refused.push(`${tool.mcpName} (${error instanceof Error ? error.message : String(error)})`)
      }
    }
    const named = refused.slice(0, 3).join('; ')
    entry.registrationNote = refused.length === 0 ? undefined : refused.length > 3 ? mcpText('mcp.notAddedMore', { tools: named, more: refused.length - 3 }) : mcpText('mcp.notAdded', { tools: named })
  }

  let listening = false
  /** Sign-in answers reach this tab's servers from the first server opened (at start-up or added in Settings). */
  function listenOnce() {
    if (listening) return
    listening = true
    listenForSignInAnswers((answer) => {
      for (const entry of entries.values()) void entry.signIn?.handle(answer)
    })
  }

  async function open(setting: McpServerSetting) {
    listenOnce()
    const blocked = blockedConnectOrigin(setting.url)
    const entry: Entry = { setting, registered: new Map() }
    entries.set(setting.id, entry)
    publish()
    // the SDK is most of the MCP code: a page without MCP servers never loads it
    const [{ createMcpConnection }, { createMcpServerSignIn }] = await Promise.all([import('#shared/mcp/mcp-connection'), import('./mcp-server-sign-in')])
    if (entries.get(setting.id) !== entry) return
    const fetch = createMcpBrowserFetch({
      direct: !blocked,
      fetch: options.fetch,
      onRoute: (route) => {
        if (entry.route === route) return
        entry.route = route
        publish()
      },
    })
    // a pasted token is the user's choice; any other server may ask for a sign-in
    entry.signIn = setting.token
      ? undefined
      : createMcpServerSignIn({ serverId: setting.id, serverUrl: setting.url, storage: options.storage, fetch, onChange: publish, reconnect: () => connection.connect(), endSession: () => connection.endSession() })
    const connection: McpConnection = createMcpConnection({
      url: setting.url,
      prefix: mcpServerPrefix(setting.name),
      headers: setting.token ? { authorization: `Bearer ${setting.token}` } : undefined,
      authProvider: entry.signIn?.provider,
      fetch: entry.signIn ? withTokenRenewal(fetch, entry.signIn.provider) : fetch,
      reconnect: options.reconnect,
      elicitation: true,
      takenNames: () => new Set(options.registry.listTools.value.map(tool => tool.name).filter(name => !entry.registered.has(name))),
      onChange: () => {
        if (entries.get(setting.id) !== entry) return
        syncTools(entry, connection)
        publish()
      },
    })
    entry.connection = connection
    setMcpAppServer({ name: setting.name, connection })
    publish()
    await connection.connect()
  }

  const saved = useSavedMcpServers(options.storage)
  function save() {
    saved.state.value = [...entries.values()].map(entry => entry.setting)
  }
  // a server added or removed in another tab is connected or dropped here too
  watch(saved.state, (list) => {
    if (!started) return
    const ids = new Set(list.map(setting => setting.id))
    for (const setting of list) if (!entries.has(setting.id)) void open(setting)
    for (const id of entries.keys()) if (!ids.has(id)) void manager.remove(id)
  })

  const manager: McpServerManager = {
    servers,
    start() {
      if (started) return
      started = true
      for (const setting of saved.state.value) void open(setting)
    },
    add(input) {
      const errors = validateMcpServerInput(input, [...entries.values()].map(entry => entry.setting))
      if (Object.keys(errors).length > 0) return errors
      const token = input.token?.trim()
      const setting: McpServerSetting = {
        id: (options.createId ?? (() => crypto.randomUUID()))(),
        name: input.name.trim(),
        url: new URL(input.url.trim()).href,
        ...(token ? { token } : {}),
      }
      void open(setting)
      save()
      return {}
    },
    async remove(id) {
      const entry = entries.get(id)
      if (!entry) return
      entries.delete(id)
      removeMcpAppServer(entry.setting.name)
      for (const dispose of entry.registered.values()) dispose()
      save()
      publish()
      forgetMcpSignIn(options.storage, id)
      await entry.connection?.close()
    },
    retry(id) {
      void entries.get(id)?.connection?.connect()
    },
    connectionOf(id) {
      return entries.get(id)?.connection
    },
    signIn(id) {
      entries.get(id)?.signIn?.start()
    },
    async signOut(id) {
      await entries.get(id)?.signIn?.signOut()
    },
    async probeCredentials(id) {
      const entry = entries.get(id)
      if (!entry) return { canSignIn: false }
      if (entry.setting.token) return { token: entry.setting.token, canSignIn: false }
      const tokens = entry.signIn ? await Promise.resolve(entry.signIn.provider.tokens()).catch(() => undefined) : undefined
      return { ...(tokens?.access_token && { token: tokens.access_token }), canSignIn: true }
    },
  }
  return manager
}
