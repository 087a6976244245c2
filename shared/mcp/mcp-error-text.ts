/**
 * MCP failures in plain words with what to do about them. The SDK's errors carry the HTTP status and the raw answer
 * (often this app's relay's JSON): the message names the usual causes and their fix, and the full text stays
 * available as details for whoever needs it.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { codedTextOfBody } from '../errors/coded-text'
import type { CodedText } from '../errors/coded-text'
import { mcpText } from './mcp-messages'
import { parseJson } from '../security/parse-json'

/** What Settings shows: a sentence for everyone, and the error as it came for the curious. */
export interface McpErrorText {
  message: string
  details: string
  /** `message` as a code and parameters, for the app to show in the user's language. */
  text: CodedText
}

/** Details are kept whole up to this length (an HTML error page is not worth more). */
const MAX_DETAILS_CHARS = 2_000
const MAX_QUOTED_CHARS = 240
// JSON-RPC's "request timed out" (the SDK's own code)
const REQUEST_TIMEOUT_CODE = -32001

/** `text` cut at a word boundary at most `max` characters in, with an ellipsis when cut. */
export function cutAtWord(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`
}

/** The JSON body inside an error's text (h3's error JSON from the relay), if there is one. */
function embeddedJson(text: string): unknown {
  const start = text.indexOf('{')
  if (start === -1) return undefined
  try {
    return parseJson(text.slice(start))
  }
  catch {
    return undefined
  }
}

/** The `message` of that body, if it has one. */
function embeddedJsonMessage(body: unknown): string | undefined {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined
  return typeof message === 'string' && message.trim() ? message.trim() : undefined
}

// The relay's own refusals that say more than the status does (the rest read better as the status's sentence).
const RELAY_SAYS_MORE = /^server\.relay\.(?:needsUrl|plainUrlOnly|methods|redirect|brokeOff|tooLarge)$/

function statusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError && typeof error.code === 'number' && error.code > 0) return error.code
  const match = /\bHTTP (\d{3})\b/.exec(error instanceof Error ? error.message : String(error))
  return match ? Number(match[1]) : undefined
}

function isTimeout(error: unknown, text: string): boolean {
  if (error instanceof McpError && error.code === REQUEST_TIMEOUT_CODE) return true
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return true
  return /\btimed out\b|\btimeout\b|\bno answer within\b/i.test(text)
}

function plainMessage(error: unknown, text: string, said: string | undefined, relayed: CodedText | undefined): CodedText {
  const status = statusOf(error)
  if (error instanceof UnauthorizedError) return mcpText('mcp.signInNeeded')
  if (/NUXT_MCP_ALLOWED_HOSTS/.test(said ?? text)) return mcpText('mcp.relayNotAllowed')
  if (relayed && RELAY_SAYS_MORE.test(relayed.code)) return relayed
  if (status === 401 || status === 403) return mcpText('mcp.tokenRefused', { status })
  if (status === 404) return mcpText('mcp.notFound')
  if (status === 405 || status === 406 || status === 415) return mcpText('mcp.notMcp', { status })
  if (status === 429) return mcpText('mcp.rateLimited')
  if (status === 502 || status === 504) return mcpText('mcp.unreachableViaRelay', { status })
  if (status !== undefined && status >= 500) return mcpText('mcp.serverFailed', { status })
  if (isTimeout(error, text)) return mcpText('mcp.timedOut')
  if (error instanceof TypeError && /fetch|network|load failed/i.test(text)) return mcpText('mcp.unreachable')
  if (error instanceof McpError) return mcpText('mcp.serverSaid', { reason: cutAtWord(error.message.replace(/^MCP error -?\d+:\s*/, ''), MAX_QUOTED_CHARS) })
  const quoted = cutAtWord(said ?? text, MAX_QUOTED_CHARS)
  return quoted ? mcpText('mcp.other', { reason: quoted }) : mcpText('mcp.unknown')
}

/** A failure of an MCP request as a plain sentence with its fix, and the error's full text as details. */
export function explainMcpError(error: unknown): McpErrorText {
  const text = (error instanceof Error ? error.message : String(error)).trim()
  const status = statusOf(error)
  const body = embeddedJson(text)
  const said = embeddedJsonMessage(body)
  const details = cutAtWord(`${status !== undefined && !text.includes(String(status)) ? `HTTP ${status}: ` : ''}${text}`, MAX_DETAILS_CHARS)
  const plain = plainMessage(error, text, said, codedTextOfBody(body))
  return { message: plain.message, details, text: plain }
}
