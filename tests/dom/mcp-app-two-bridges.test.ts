// Two MCP App cards on one page: each bridge listens on the page's window, and takes only what its own frame
// sends, from the sandbox origin; what it sends goes to its own frame alone. A card shown again (the virtual list
// unmounts a turn out of range and mounts it when it comes back) starts at the height its app last had, so its
// turn keeps the size the list measured instead of growing again and moving the range.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { createMcpAppHost } from '~/utils/chat/mcp-apps/mcp-app-host'
import type { McpAppHost } from '~/utils/chat/mcp-apps/mcp-app-host'
import { createMcpAppTransport } from '~/utils/chat/mcp-apps/mcp-app-transport'
import {
  boundedMcpAppHeight, initialMcpAppHeight, MCP_APP_DEFAULT_HEIGHT, MCP_APP_MAX_INLINE_HEIGHT, rememberMcpAppHeight,
} from '~/utils/chat/mcp-apps/mcp-app-frame-height'
import type { McpAppRecord } from '~/db/types'
import { QUIET_HOST_CALLBACKS } from '../unit/helpers/quiet-mcp-app-host'

const SANDBOX = 'http://localhost:3000'

function record(label: string): McpAppRecord {
  return {
    toolName: 'apps__show_counter', serverName: 'Apps', uri: 'ui://counter/app.html', html: `<p>${label}</p>`,
    csp: { connectDomains: [], resourceDomains: [] }, input: { label }, result: { content: [], structuredContent: { label } },
  }
}

const hosts: McpAppHost[] = []
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close()
  document.body.replaceChildren()
})

/** A card: its frame (a real iframe window of the page), what the bridge posted to it, and the bridge. */
async function card(label: string) {
  const frame = document.createElement('iframe')
  document.body.append(frame)
  const window_ = frame.contentWindow!
  const posted: JSONRPCMessage[] = []
  vi.spyOn(window_, 'postMessage').mockImplementation(((message: JSONRPCMessage) => posted.push(message)) as typeof window_.postMessage)
  const host = createMcpAppHost({
    record: record(label),
    transport: createMcpAppTransport({ frame: () => window_, origin: SANDBOX }),
    hostContext: { theme: 'light' },
    ...QUIET_HOST_CALLBACKS,
  })
  hosts.push(host)
  await host.connect()
  /** A message from this card's frame, as the sandbox relays the app's. */
  const send = (data: JSONRPCMessage, source: Window = window_) =>
    window.dispatchEvent(new MessageEvent('message', { data, origin: SANDBOX, source }))
  return { window: window_, posted, send }
}

const methods = (posted: JSONRPCMessage[]) => posted.map(message => ('method' in message ? message.method : `response ${'id' in message ? String(message.id) : ''}`))

describe('two MCP App bridges on one page', () => {
  it('answer only their own frame: one app\'s handshake starts its own card, never the other\'s', async () => {
    const first = await card('first')
    const second = await card('second')
    first.send({ jsonrpc: '2.0', id: 0, method: 'ui/initialize', params: { appInfo: { name: 'a', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } })
    await vi.waitFor(() => expect(methods(first.posted)).toEqual(['response 0']))
    first.send({ jsonrpc: '2.0', method: 'ui/notifications/initialized' })
    await vi.waitFor(() => expect(methods(first.posted)).toEqual(['response 0', 'ui/notifications/tool-input', 'ui/notifications/tool-result']))
    expect(first.posted[1]).toMatchObject({ params: { arguments: { label: 'first' } } })
    expect(second.posted).toEqual([])

    // the second app starts late, after the first is running: it gets its own input, and the first nothing more
    second.send({ jsonrpc: '2.0', id: 0, method: 'ui/initialize', params: { appInfo: { name: 'b', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } })
    await vi.waitFor(() => expect(methods(second.posted)).toEqual(['response 0']))
    second.send({ jsonrpc: '2.0', method: 'ui/notifications/initialized' })
    await vi.waitFor(() => expect(methods(second.posted)).toEqual(['response 0', 'ui/notifications/tool-input', 'ui/notifications/tool-result']))
    expect(second.posted[1]).toMatchObject({ params: { arguments: { label: 'second' } } })
    expect(first.posted).toHaveLength(3)
  })

  it('ignore a frame that speaks with another card\'s voice or from another origin', async () => {
    const first = await card('first')
    const second = await card('second')
    // the second frame sends the first card's handshake: only the second bridge may answer it
    second.send({ jsonrpc: '2.0', id: 7, method: 'ui/initialize', params: { appInfo: { name: 'b', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' } })
    await vi.waitFor(() => expect(methods(second.posted)).toEqual(['response 7']))
    window.dispatchEvent(new MessageEvent('message', { data: { jsonrpc: '2.0', method: 'ui/notifications/initialized' }, origin: 'https://evil.example', source: first.window }))
    await new Promise(resolve => setTimeout(resolve, 0))
    expect(first.posted).toEqual([])
  })
})

describe('the height an app card starts at', () => {
  it('is the app\'s last height in this tab, else the one kept on the row, else the default', () => {
    expect(initialMcpAppHeight('call-a', {})).toBe(MCP_APP_DEFAULT_HEIGHT)
    expect(initialMcpAppHeight('call-a', { frameHeight: 420 })).toBe(420)
    rememberMcpAppHeight('call-a', 560)
    expect(initialMcpAppHeight('call-a', { frameHeight: 420 })).toBe(560)
    expect(initialMcpAppHeight('call-b', { frameHeight: 99_999 })).toBe(MCP_APP_MAX_INLINE_HEIGHT)
  })

  it('stays within bounds whatever the app asks', () => {
    expect(boundedMcpAppHeight(Number.NaN)).toBeUndefined()
    expect(boundedMcpAppHeight('300')).toBeUndefined()
    expect(boundedMcpAppHeight(1)).toBe(48)
    expect(boundedMcpAppHeight(300.2)).toBe(301)
  })
})
