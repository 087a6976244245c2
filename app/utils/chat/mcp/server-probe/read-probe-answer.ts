import { createParser } from 'eventsource-parser'
import { isRecord } from '#shared/types/is-record'
import { tryParseJson } from '#shared/security/parse-json'
import type { McpProbeText } from './probe-types'

/** One answer of the server, read within the size bound. */
export type ProbeAnswer =
  | { kind: 'json-rpc', message: Record<string, unknown> }
  | { kind: 'not-mcp', summary: string, message: McpProbeText, details: string }

/** The body as text, at most `maxBytes` (a larger one is cut and reported), the read aborted with `signal`. */
export async function readBoundedText(response: Response, maxBytes: number): Promise<{ text: string, cut: boolean }> {
  if (!response.body) return { text: '', cut: false }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { text: text + decoder.decode(), cut: false }
    bytes += value.byteLength
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {})
      return { text, cut: true }
    }
    text += decoder.decode(value, { stream: true })
  }
}

function firstLines(text: string): string {
  return text.slice(0, 300).trim()
}

/** The server's JSON, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  const parsed = tryParseJson(text)
  return parsed.ok ? parsed.value : undefined
}

/** The JSON-RPC answer to request `id` in an event stream's `message` events, or undefined. */
function answerInStream(text: string, id: number): unknown {
  let found: unknown
  const parser = createParser({
    onEvent: (event) => {
      if (found !== undefined || (event.event && event.event !== 'message')) return
      const data = parseJson(event.data)
      if (isRecord(data) && data.id === id) found = data
    },
  })
  parser.feed(text)
  parser.feed('\n\n')
  return found
}

/**
 * Reads a 2xx answer to JSON-RPC request `id`: JSON or an event stream (Streamable HTTP allows both) holding a
 * JSON-RPC 2.0 response. Anything else says why it is not MCP.
 */
export async function readProbeAnswer(response: Response, id: number, maxBytes: number): Promise<ProbeAnswer> {
  const type = (response.headers.get('content-type') ?? '').toLowerCase()
  const { text, cut } = await readBoundedText(response, maxBytes)
  const status = `HTTP ${response.status} ${type || '(no content type)'}`
  if (cut) return { kind: 'not-mcp', summary: `The answer is larger than ${Math.round(maxBytes / 1024)} KB: not what an MCP server sends to initialize.`, message: { key: 'tooLarge', values: { size: Math.round(maxBytes / 1024) } }, details: status }
  if (type.includes('text/html') || /^\s*<(!doctype|html)/i.test(text)) {
    return { kind: 'not-mcp', summary: 'This URL answers with a web page (HTML), not MCP. Check the path: MCP endpoints usually end in /mcp.', message: { key: 'html' }, details: `${status}\n${firstLines(text)}` }
  }
  let message: unknown
  if (type.includes('text/event-stream')) message = answerInStream(text, id)
  else if (type.includes('application/json') || type.includes('+json')) message = parseJson(text)
  else {
    return { kind: 'not-mcp', summary: `The server answered with ${type || 'no content type'}, where MCP answers with JSON or an event stream.`, message: type ? { key: 'contentType', values: { type } } : { key: 'noContentType' }, details: `${status}\n${firstLines(text)}` }
  }
  if (!isRecord(message) || message.jsonrpc !== '2.0' || !('result' in message || 'error' in message)) {
    return { kind: 'not-mcp', summary: 'The server answered, but not in JSON-RPC 2.0, the language of MCP.', message: { key: 'notJsonRpc' }, details: `${status}\n${firstLines(text)}` }
  }
  return { kind: 'json-rpc', message }
}
