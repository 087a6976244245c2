/** The app route an MCP authorization server sends the sign-in popup back to. */
export { MCP_OAUTH_CALLBACK_PATH } from './mcp-oauth-callback-path'

/** What the callback page hands back to the page that started a sign-in (no SDK code: the callback page loads it). */
export interface McpSignInAnswer {
  code?: string
  state?: string
  /** The authorization server's `error` (e.g. `access_denied`) and its description. */
  error?: string
  errorDescription?: string
  /** Which authorization server sent the answer (RFC 9207), when it says. */
  iss?: string
}

const MAX_FIELD_CHARS = 4096

/** One field of an answer: a string of sensible length, else left out. */
function field(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_CHARS ? value : undefined
}

/** The answer read from the callback URL's query. */
export function readSignInAnswer(query: URLSearchParams): McpSignInAnswer {
  return { code: field(query.get('code')), state: field(query.get('state')), error: field(query.get('error')), errorDescription: field(query.get('error_description')), iss: field(query.get('iss')) }
}

/** The answer read from a message (other pages' messages are input like any other). */
export function readSignInMessage(data: unknown): McpSignInAnswer | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const record = data as Record<string, unknown>
  return { code: field(record.code), state: field(record.state), error: field(record.error), errorDescription: field(record.errorDescription), iss: field(record.iss) }
}
