/**
 * The English of every MCP status sentence a person reads (Settings → MCP servers, a server-run chat's notes), by
 * code. The app shows the same codes from its catalogs (`codes.mcp.*`) in the user's language; these texts stay for
 * logs, the model and older clients. tests/unit/coded-messages.test.ts keeps both in step.
 */
import { codedText } from '../errors/coded-text'
import type { CodedParams, CodedText } from '../errors/coded-text'

export const MCP_MESSAGES = {
  'mcp.signInNeeded': 'This server asks you to sign in: press Sign in.',
  'mcp.relayNotAllowed': 'This app\'s server does not relay that server: its operator can add the host to NUXT_MCP_ALLOWED_HOSTS. If the server allows this app\'s origin (CORS), allow it for a direct connection instead.',
  'mcp.tokenRefused': 'The server refused the token (HTTP {status}). Check it in Settings → MCP servers: remove the server and add it again with a valid token.',
  'mcp.notFound': 'Nothing answers at this URL (HTTP 404). Check the server\'s address: Streamable HTTP servers usually end in /mcp.',
  'mcp.notMcp': 'This URL does not speak MCP over Streamable HTTP (HTTP {status}). Check the server\'s address.',
  'mcp.rateLimited': 'The server is limiting requests (HTTP 429). Wait a moment, then press Retry.',
  'mcp.unreachableViaRelay': 'The server could not be reached through this app\'s server (HTTP {status}). Check that it is running and its address is right.',
  'mcp.serverFailed': 'The server failed (HTTP {status}). Try again later, or ask its operator.',
  'mcp.timedOut': 'The server did not answer in time. It may be busy or down: press Retry later.',
  'mcp.unreachable': 'The browser could not reach the server: it may be offline, the address may be wrong, or it does not allow this app\'s origin (CORS).',
  'mcp.serverSaid': 'The server said: {reason}',
  'mcp.other': '{reason}',
  'mcp.unknown': 'Unknown error.',
  'mcp.gaveUp': 'Gave up after {attempts} attempts to reconnect.',
  'mcp.dropped': 'The connection dropped; trying again.',
  'mcp.toolListFailed': 'Could not read the new tool list.',
  'mcp.toolSkipped': '1 tool skipped: {named}.',
  'mcp.toolsSkipped': '{count} tools skipped: {named}.',
  'mcp.toolsSkippedMore': '{count} tools skipped: {named}; and {more} more.',
  'mcp.notAdded': 'Not added: {tools}.',
  'mcp.notAddedMore': 'Not added: {tools} and {more} more.',
} as const

export type McpMessageCode = keyof typeof MCP_MESSAGES

/** An MCP status sentence by its code. */
export function mcpText(code: McpMessageCode, params: CodedParams = {}): CodedText {
  return codedText(MCP_MESSAGES, code, params)
}
