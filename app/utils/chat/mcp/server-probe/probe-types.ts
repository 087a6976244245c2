/** What went wrong, in the words Settings uses: one kind per thing the user (or the server's owner) can fix. */
export type McpProbeProblem = 'cors' | 'csp' | 'auth' | 'not-mcp' | 'unreachable' | 'tls' | 'timeout'

/**
 * A sentence of the result as a key of the catalogs' `mcp.probe` and its values, so Settings shows it in the
 * user's language; `summary` and `note` keep the English (logs, tests, and any caller without the catalogs).
 */
export interface McpProbeText {
  key: string
  values?: Record<string, string | number>
  /** Picks the plural form. */
  count?: number
}

/** What "Test server" found. */
export type McpProbeResult =
  | {
    ok: true
    /** "OK: 3 tools, protocol 2025-06-18, server docs 1.2.0" */
    summary: string
    message?: McpProbeText
    tools: number
    protocolVersion: string
    serverName: string
    serverVersion?: string
    /** Reached through the app's relay, not straight from the browser. */
    relayed?: boolean
    /** Something the user may still want to know (e.g. the browser cannot reach it directly). */
    note?: string
    noteMessage?: McpProbeText
  }
  | {
    ok: false
    problem: McpProbeProblem
    /** One or two plain sentences: what is wrong and what to do. */
    summary: string
    message?: McpProbeText
    /** The raw evidence (status line, error text, the first bytes), behind "Details". */
    details?: string
    /** For `csp`: the origin the user may allow. */
    blockedOrigin?: string
    /** For `auth`: what the server said about signing in. */
    authorization?: McpProbeAuthorization
  }

/** What a server that asks for sign-in told the probe (RFC 9728 protected resource metadata, WWW-Authenticate). */
export interface McpProbeAuthorization {
  /** The `resource_metadata` URL, from WWW-Authenticate or the well-known location. */
  resourceMetadataUrl?: string
  /** The authorization servers the metadata lists. */
  authorizationServers: string[]
  /** The scope WWW-Authenticate asks for, when it says. */
  scope?: string
}
