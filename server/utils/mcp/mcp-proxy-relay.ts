import type { IncomingMessage, ServerResponse } from 'node:http'
import { responseDrained } from '../http/response-drained'

export interface McpRelayOptions {
  /** Longest wait for the next bytes from the MCP server. */
  idleTimeoutMs: number
  /** Most bytes relayed in one response; the stream is ended past it. */
  maxBytes: number
}


/**
 * Copies an MCP server's event stream to the browser as it arrives, no faster than the browser reads it. The
 * stream ends (and the upstream connection closes) when the server is silent for `idleTimeoutMs`, sends more than
 * `maxBytes`, or breaks; the browser's MCP client then reconnects. Returns why it ended early, or undefined.
 */
export async function relayMcpStream(upstream: IncomingMessage, response: ServerResponse, options: McpRelayOptions): Promise<string | undefined> {
  let sent = 0
  let idle: ReturnType<typeof setTimeout> | undefined
  let reason: string | undefined
  const armIdle = () => {
    clearTimeout(idle)
    idle = setTimeout(() => {
      reason = `the MCP server sent nothing for ${Math.round(options.idleTimeoutMs / 1000)} s`
      upstream.destroy()
    }, options.idleTimeoutMs)
  }
  const onClose = () => upstream.destroy()
  response.on('close', onClose)
  armIdle()
  try {
    for await (const chunk of upstream) {
      armIdle()
      const bytes = chunk as Buffer
      sent += bytes.length
      if (sent > options.maxBytes) {
        reason = `the MCP server sent more than ${Math.round(options.maxBytes / (1024 * 1024))} MB in one stream`
        break
      }
      if (response.destroyed) return undefined
      if (!response.write(bytes)) await responseDrained(response)
    }
  }
  catch (error) {
    reason ??= `the connection to the MCP server broke (${(error as Error).message})`
  }
  finally {
    clearTimeout(idle)
    response.off('close', onClose)
    upstream.destroy()
  }
  if (!response.destroyed) response.end()
  return reason
}
