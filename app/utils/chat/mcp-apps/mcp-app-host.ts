/**
 * The host side of one MCP App, on the extension's AppBridge (`@modelcontextprotocol/ext-apps/app-bridge`): it
 * answers `ui/initialize` with the host context (theme, display mode, locale), hands the sandbox the app's HTML and
 * declared domains, sends the call's input and result (then the app's own latest result) once the app is ready,
 * and passes the app's requests to the functions given: tool calls, messages, model context, size and display
 * mode. Loaded only when a card shows an app.
 */
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { McpUiDisplayMode, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { McpAppRecord } from '~/db/types'

/** The most one app message may say (characters): the rest is cut. */
export const MAX_APP_MESSAGE_CHARS = 8_000

export interface McpAppHostOptions {
  record: McpAppRecord
  transport: Transport
  hostContext: McpUiHostContext
  /** Runs a tool the app asked for (checks, approval and the server are the caller's); throws with a message to refuse. */
  callTool: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>
  /** Adds a user message to the chat; false when it could not. */
  sendMessage: (text: string) => Promise<boolean>
  updateModelContext: (text: string) => void
  onSize: (size: { width?: number, height?: number }) => void
  /** Switches the display mode; returns the mode in force. */
  onDisplayMode: (mode: McpUiDisplayMode) => McpUiDisplayMode | Promise<McpUiDisplayMode>
  /** Opens a link the app asked for, after the user agrees; false when refused or declined. Absent: refused. */
  openLink?: (url: string) => Promise<boolean>
}

export interface McpAppHost {
  connect: () => Promise<void>
  setHostContext: (context: McpUiHostContext) => void
  close: () => Promise<void>
}

/** The text of MCP content blocks (other kinds are named, not dropped silently). */
export function textOfBlocks(blocks: unknown): string {
  if (!Array.isArray(blocks)) return ''
  return blocks.map((block) => {
    const item = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>
    return item.type === 'text' && typeof item.text === 'string' ? item.text : `[${String(item.type ?? 'unknown')} content]`
  }).join('\n')
}

function refusal(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] }
}

export function createMcpAppHost(options: McpAppHostOptions): McpAppHost {
  const { record } = options
  const bridge = new AppBridge(null, { name: 'Plugboard', version: '1.0.0' }, {
    serverTools: {},
    message: { text: {} },
    updateModelContext: { text: {} },
    // what the frame is given, in the protocol's words: the declared domains, and no browser permission at all
    sandbox: { permissions: {}, csp: record.csp },
  }, { hostContext: options.hostContext })

  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html: record.html, csp: record.csp })
  }
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: record.input ?? {} })
    if (record.result) void bridge.sendToolResult(record.result as CallToolResult)
    // the state the user left (the app's own last call): after the call's result, so an app that does not read it
    // still shows what its tool returned
    if (record.latestResult) void bridge.sendToolResult(record.latestResult as CallToolResult)
  }
  bridge.oncalltool = async (params) => {
    try {
      return await options.callTool(params.name, (params.arguments ?? {}) as Record<string, unknown>)
    }
    catch (error) {
      return refusal(error instanceof Error ? error.message : String(error))
    }
  }
  bridge.onmessage = async (params) => {
    const text = textOfBlocks(params.content).trim().slice(0, MAX_APP_MESSAGE_CHARS)
    if (params.role !== 'user' || !text) return { isError: true }
    return (await options.sendMessage(text)) ? {} : { isError: true }
  }
  bridge.onupdatemodelcontext = async (params) => {
    const structured = params.structuredContent === undefined ? '' : JSON.stringify(params.structuredContent)
    options.updateModelContext([textOfBlocks(params.content), structured].filter(Boolean).join('\n'))
    return {}
  }
  bridge.onsizechange = size => options.onSize(size)
  bridge.onrequestdisplaymode = async params => ({ mode: await options.onDisplayMode(params.mode) })
  bridge.onopenlink = async params => (options.openLink && await options.openLink(params.url) ? {} : { isError: true })

  return {
    connect: () => bridge.connect(options.transport),
    setHostContext(context) {
      bridge.setHostContext(context)
    },
    close: () => bridge.close(),
  }
}
