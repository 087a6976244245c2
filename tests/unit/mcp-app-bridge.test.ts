// The MCP Apps host bridge against the extension's own App class on the other end of a linked transport: what an
// app can ask (tools, messages, model context, size, display mode) reaches the host's functions, refusals reach the
// app as errors, and the host's context (theme) reaches the app. The postMessage transport drops what a hostile
// frame sends from elsewhere, too much of, or too large.
import { describe, expect, it, vi } from 'vitest'
import { App } from '@modelcontextprotocol/ext-apps'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createMcpAppHost, textOfBlocks } from '~/utils/chat/mcp-apps/mcp-app-host'
import type { McpAppHostOptions } from '~/utils/chat/mcp-apps/mcp-app-host'
import { checkMcpAppToolCall } from '~/utils/chat/mcp-apps/mcp-app-call-check'
import { createMcpAppTransport } from '~/utils/chat/mcp-apps/mcp-app-transport'
import { checkMcpTools } from '#shared/mcp/mcp-tool-list'
import type { McpAppRecord } from '~/db/types'
import { QUIET_HOST_CALLBACKS } from './helpers/quiet-mcp-app-host'

const record: McpAppRecord = {
  toolName: 'apps__show_counter',
  serverName: 'Apps',
  uri: 'ui://counter/app.html',
  html: '<p>counter</p>',
  csp: { connectDomains: [], resourceDomains: [] },
  input: { label: 'mine' },
  result: { content: [{ type: 'text', text: 'The counter shows 7.' }], structuredContent: { count: 7 } },
}

const serverTools = checkMcpTools([
  { name: 'show_counter', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://counter/app.html' } } },
  { name: 'increment', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } },
  { name: 'secret_admin', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['model'] } } },
], 'apps').tools

async function connected(overrides: Partial<McpAppHostOptions> = {}) {
  const [hostSide, appSide] = InMemoryTransport.createLinkedPair()
  const calls: Array<{ name: string, args: Record<string, unknown> }> = []
  const options: McpAppHostOptions = {
    record,
    transport: hostSide,
    hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'], locale: 'en-GB' },
    callTool: async (name, args) => {
      const check = checkMcpAppToolCall(serverTools, name)
      if (!check.ok) throw new Error(check.message)
      calls.push({ name: check.tool.mcpName, args })
      return { content: [{ type: 'text', text: 'ran' }], structuredContent: { count: 8 } }
    },
    sendMessage: vi.fn(async () => true),
    updateModelContext: vi.fn(),
    onSize: vi.fn(),
    onDisplayMode: vi.fn(mode => mode),
    ...overrides,
  }
  const host = createMcpAppHost(options)
  const app = new App({ name: 'test-app', version: '1.0.0' }, {}, { autoResize: false })
  const input = new Promise(resolve => (app.ontoolinput = resolve))
  const result = new Promise(resolve => (app.ontoolresult = resolve))
  await host.connect()
  await app.connect(appSide)
  return { app, host, options, calls, input, result }
}

describe('the MCP Apps host bridge', () => {
  it('answers ui/initialize with the host context, then sends the call\'s input and result', async () => {
    const { app, input, result } = await connected()
    expect(app.getHostContext()).toMatchObject({ theme: 'light', displayMode: 'inline', locale: 'en-GB' })
    await expect(input).resolves.toEqual({ arguments: { label: 'mine' } })
    await expect(result).resolves.toMatchObject({ structuredContent: { count: 7 } })
  })

  it('shows the state the user left: the app\'s own latest result follows the call\'s', async () => {
    const [hostSide, appSide] = InMemoryTransport.createLinkedPair()
    const latest = { content: [{ type: 'text', text: 'The counter shows 9.' }], structuredContent: { count: 9 } }
    const host = createMcpAppHost({
      record: { ...record, latestResult: latest },
      transport: hostSide,
      hostContext: { theme: 'light' },
      ...QUIET_HOST_CALLBACKS,
    })
    const app = new App({ name: 'test-app', version: '1.0.0' }, {}, { autoResize: false })
    const results: unknown[] = []
    const second = new Promise((resolve) => {
      app.ontoolresult = (result) => {
        results.push(result.structuredContent)
        if (results.length === 2) resolve(results)
      }
    })
    await host.connect()
    await app.connect(appSide)
    await expect(second).resolves.toEqual([{ count: 7 }, { count: 9 }])
  })

  it('tells the app, in its capabilities, the declared domains and that no browser permission is granted', async () => {
    const { app } = await connected()
    expect(app.getHostCapabilities()?.sandbox).toEqual({ permissions: {}, csp: record.csp })
  })

  it('passes a call of a tool the app may see to the server, by the server\'s name', async () => {
    const { app, calls } = await connected()
    const answer = await app.callServerTool({ name: 'increment', arguments: { by: 1 } })
    expect(answer.structuredContent).toEqual({ count: 8 })
    expect(calls).toEqual([{ name: 'increment', args: { by: 1 } }])
  })

  it('refuses a model-only tool and a tool the server does not list, as an error the app reads', async () => {
    const { app, calls } = await connected()
    const secret = await app.callServerTool({ name: 'secret_admin', arguments: {} })
    expect(secret.isError).toBe(true)
    expect(textOfBlocks(secret.content)).toMatch(/visible to the model only/)
    const unknown = await app.callServerTool({ name: 'rm_rf', arguments: {} })
    expect(unknown.isError).toBe(true)
    expect(textOfBlocks(unknown.content)).toMatch(/lists no such tool/)
    expect(calls).toEqual([])
  })

  it('reports a refusal of the approval policy as the tool\'s error', async () => {
    const { app } = await connected({ callTool: async () => { throw new Error('The user declined to run apps__increment.') } })
    const answer = await app.callServerTool({ name: 'increment', arguments: {} }) as CallToolResult
    expect(answer).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The user declined to run apps__increment.' }] })
  })

  it('hands ui/message to the chat as a user message, and says when it could not', async () => {
    const sendMessage = vi.fn(async () => true)
    const { app } = await connected({ sendMessage })
    await expect(app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'Hello from the app' }] })).resolves.not.toHaveProperty('isError')
    expect(sendMessage).toHaveBeenCalledWith('Hello from the app')
    sendMessage.mockResolvedValueOnce(false)
    await expect(app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'again' }] })).resolves.toMatchObject({ isError: true })
  })

  it('passes model context, size changes and display mode requests to the host', async () => {
    const { app, options } = await connected({ onDisplayMode: vi.fn(() => 'fullscreen' as const) })
    await app.updateModelContext({ content: [{ type: 'text', text: 'The counter shows 8' }], structuredContent: { count: 8 } })
    expect(options.updateModelContext).toHaveBeenCalledWith('The counter shows 8\n{"count":8}')
    await app.sendSizeChanged({ height: 321 })
    await vi.waitFor(() => expect(options.onSize).toHaveBeenCalledWith({ height: 321 }))
    await expect(app.requestDisplayMode({ mode: 'fullscreen' })).resolves.toEqual({ mode: 'fullscreen' })
  })

  it('tells the app when the theme changes', async () => {
    const { app, host } = await connected()
    const changed = new Promise(resolve => (app.onhostcontextchanged = resolve))
    host.setHostContext({ theme: 'dark', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'], locale: 'en-GB' })
    await expect(changed).resolves.toMatchObject({ theme: 'dark' })
    expect(app.getHostContext()?.theme).toBe('dark')
  })
})

describe('the sandbox frame\'s transport', () => {
  function setup(limits: { maxMessageChars?: number, maxMessagesPerSecond?: number } = {}) {
    let listener: ((event: MessageEvent) => void) | undefined
    const frame = { postMessage: vi.fn() } as unknown as Window
    const ignored: string[] = []
    const transport = createMcpAppTransport({
      frame: () => frame,
      origin: 'http://localhost:3000',
      onIgnored: reason => ignored.push(reason),
      target: {
        addEventListener: (_type: string, handler: unknown) => (listener = handler as (event: MessageEvent) => void),
        removeEventListener: () => (listener = undefined),
      } as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>,
      ...limits,
    })
    const received: unknown[] = []
    transport.onmessage = message => received.push(message)
    const deliver = (data: unknown, from: { source?: unknown, origin?: string } = {}) =>
      listener?.({ data, source: from.source ?? frame, origin: from.origin ?? 'http://localhost:3000' } as MessageEvent)
    return { transport, frame, received, ignored, deliver }
  }

  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' }

  it('accepts JSON-RPC from the frame on the sandbox origin, and posts to that origin only', async () => {
    const { transport, frame, received, deliver } = setup()
    await transport.start()
    deliver(ping)
    expect(received).toEqual([ping])
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} })
    expect(frame.postMessage).toHaveBeenCalledWith({ jsonrpc: '2.0', id: 1, result: {} }, 'http://localhost:3000')
  })

  it('ignores other windows, other origins, non-JSON-RPC and oversized messages', async () => {
    const { transport, received, ignored, deliver } = setup({ maxMessageChars: 1000 })
    await transport.start()
    deliver(ping, { source: {} })
    deliver(ping, { origin: 'http://127.0.0.1:3000' })
    deliver({ method: 'ping' })
    deliver({ ...ping, params: { padding: 'x'.repeat(2000) } })
    expect(received).toEqual([])
    expect(ignored).toHaveLength(3)
  })

  it('drops a flood beyond the per-second limit', async () => {
    const { transport, received, deliver } = setup({ maxMessagesPerSecond: 10 })
    await transport.start()
    for (let index = 0; index < 50; index++) deliver({ ...ping, id: index })
    expect(received).toHaveLength(10)
  })

  it('stops listening when closed', async () => {
    const { transport, received, deliver } = setup()
    await transport.start()
    await transport.close()
    deliver(ping)
    expect(received).toEqual([])
  })
})
