/**
 * What one MCP server's OAuth sign-in keeps between page loads: the client registration, the tokens, the PKCE
 * verifier and `state` of a sign-in under way, and what discovery found. Where it lives is the caller's choice
 * (localStorage in the browser, memory in the conformance client); reads are checked like any stored input.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { isRecord } from '../../types/is-record'

export interface McpOAuthRecord {
  clientInformation?: OAuthClientInformationMixed
  /** As the token endpoint sent them, plus `expires_at` (ms since epoch) computed when they were saved. */
  tokens?: OAuthTokens & { expires_at?: number }
  codeVerifier?: string
  /** The `state` of the authorization request under way; the callback must bring it back. */
  state?: string
  /** The authorization page to open (set when the server asked for a sign-in). */
  authorizationUrl?: string
  discovery?: OAuthDiscoveryState
}

export interface McpOAuthStore {
  read: () => McpOAuthRecord | Promise<McpOAuthRecord>
  write: (record: McpOAuthRecord) => void | Promise<void>
}

/** A store in memory (the conformance client, the operator's servers, tests). */
export function createMemoryOAuthStore(initial: McpOAuthRecord = {}): McpOAuthStore {
  let record = { ...initial }
  return {
    read: () => record,
    write: (next) => {
      record = { ...next }
    },
  }
}

/** A stored record read back: fields of the wrong type are dropped one by one, never trusted. */
export function readOAuthRecord(value: unknown): McpOAuthRecord {
  if (!isRecord(value)) return {}
  const record: McpOAuthRecord = {}
  if (isRecord(value.clientInformation) && typeof value.clientInformation.client_id === 'string') record.clientInformation = value.clientInformation as unknown as OAuthClientInformationMixed
  if (isRecord(value.tokens) && typeof value.tokens.access_token === 'string' && typeof value.tokens.token_type === 'string') record.tokens = value.tokens as unknown as McpOAuthRecord['tokens']
  if (typeof value.codeVerifier === 'string') record.codeVerifier = value.codeVerifier
  if (typeof value.state === 'string') record.state = value.state
  if (typeof value.authorizationUrl === 'string') record.authorizationUrl = value.authorizationUrl
  if (isRecord(value.discovery) && typeof value.discovery.authorizationServerUrl === 'string') record.discovery = value.discovery as unknown as OAuthDiscoveryState
  return record
}
