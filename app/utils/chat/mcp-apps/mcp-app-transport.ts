import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { isRecord } from '#shared/types/is-record'

export interface McpAppTransportOptions {
  /** The sandbox frame's window (messages from any other window are ignored). */
  frame: () => Window | null | undefined
  /** The sandbox origin (messages from any other origin are ignored; ours go to it alone). */
  origin: string
  /** Largest message accepted, as JSON characters. @default 1_048_576 */
  maxMessageChars?: number
  /** Messages accepted per second; the rest of a burst is dropped. @default 200 */
  maxMessagesPerSecond?: number
  /** Told about each ignored message, with the reason (for the console and tests). */
  onIgnored?: (reason: string) => void
  /** @default globalThis (the page's window) */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>
}

/**
 * JSON-RPC over `postMessage` with one app's sandbox frame, for the extension's AppBridge. Unlike the package's
 * PostMessageTransport it also checks the sender's origin, posts to that origin only (never `*`), and bounds what
 * a hostile app can make the page do: huge messages and floods are dropped before they are parsed by the bridge.
 */
export function createMcpAppTransport(options: McpAppTransportOptions): Transport {
  const { frame, origin, maxMessageChars = 1024 * 1024, maxMessagesPerSecond = 200, onIgnored } = options
  const target = options.target ?? globalThis
  let windowStart = 0
  let count = 0

  const transport: Transport = {
    async start() {
      target.addEventListener('message', listener as EventListener)
    },
    async send(message: JSONRPCMessage) {
      frame()?.postMessage(message, origin)
    },
    async close() {
      target.removeEventListener('message', listener as EventListener)
      transport.onclose?.()
    },
  }

  function listener(event: MessageEvent) {
    const source = frame()
    if (!source || event.source !== source) return
    if (event.origin !== origin) return onIgnored?.(`a message from ${event.origin}, not the sandbox origin`)
    const now = Date.now()
    if (now - windowStart >= 1000) {
      windowStart = now
      count = 0
    }
    if (++count > maxMessagesPerSecond) return onIgnored?.('more messages than the app may send in a second')
    const data: unknown = event.data
    if (!isRecord(data) || data.jsonrpc !== '2.0') return onIgnored?.('a message that is not JSON-RPC 2.0')
    let size: number
    try {
      size = JSON.stringify(data).length
    }
    catch {
      return onIgnored?.('a message that is not plain JSON')
    }
    if (size > maxMessageChars) return onIgnored?.(`a message of ${size} characters (at most ${maxMessageChars})`)
    transport.onmessage?.(data as JSONRPCMessage)
  }

  return transport
}
