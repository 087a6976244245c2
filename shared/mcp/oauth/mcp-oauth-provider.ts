/**
 * The app's OAuth client for one MCP server, on the SDK's client auth (`auth()`: protected-resource and
 * authorization-server discovery with their fallbacks, client ID metadata documents or dynamic registration, PKCE,
 * resource indicators, scopes from `WWW-Authenticate` or `scopes_supported`, step-up). This file adds what the SDK
 * leaves to its caller: where the record is kept, the `state` of a sign-in, and a refresh that runs once at a time
 * (`withLock`: a Web Lock per server in the browser, so two tabs never spend one refresh token twice).
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import type { AddClientAuthentication, OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { createLocalLock } from './local-lock'
import { checkDiscoveredIssuer } from './mcp-oauth-issuer'
import { withGrantedScopes } from './mcp-oauth-scope'
import type { McpOAuthRecord, McpOAuthStore } from './mcp-oauth-store'

export interface McpOAuthProviderOptions {
  /** The MCP server's endpoint (the protected resource). */
  serverUrl: string
  store: McpOAuthStore
  /** Where the authorization server sends the browser back (the app's callback route). */
  redirectUrl: string
  /** @default 'Plugboard' */
  clientName?: string
  /** The app's client ID metadata document (https only); used when the server supports CIMD, else DCR. */
  clientMetadataUrl?: string
  /** A client the operator or user registered beforehand (no DCR then). */
  preRegistered?: OAuthClientInformationMixed
  /** How the token endpoint is told who the client is. @default 'none' (a public client, as a browser is) */
  tokenEndpointAuthMethod?: string
  addClientAuthentication?: AddClientAuthentication
  /** The server needs a sign-in: the authorization page to open (the browser waits for a click to open it). */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>
  /** Runs `task` alone among every holder of this server's lock. @default one at a time in this process */
  withLock?: <T>(task: () => Promise<T>) => Promise<T>
  /** The fetch for discovery and token requests of a refresh. @default globalThis.fetch */
  fetch?: FetchLike
  /** Tokens this close to their expiry are refreshed before use. @default 60_000 */
  refreshMarginMs?: number
  /** @default Date.now */
  now?: () => number
}

export interface McpOAuthProvider extends OAuthClientProvider {
  /** The stored record (sign-in state for the settings). */
  record: () => Promise<McpOAuthRecord>
  /**
   * The server refused `accessToken` (401): refreshes it once, whoever else asks — unless another request or tab
   * already replaced it — and resolves with the tokens to try again with (undefined: a sign-in is needed).
   */
  renewRejected: (accessToken: string) => Promise<OAuthTokens | undefined>
  /** Forgets tokens, registration and any sign-in under way ("Sign out"). */
  signOut: () => Promise<void>
}

function randomState(): string {
  const bytes = new Uint8Array(24)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, byte => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The tokens as the SDK sees them outside a refresh: without the refresh token, so the SDK's own refresh on a 401
 * (which no lock guards) never runs; `renewRejected` does it under the lock instead.
 */
function withoutRefreshToken(tokens: McpOAuthRecord['tokens']): OAuthTokens | undefined {
  if (!tokens) return undefined
  const { refresh_token: _refresh, expires_at: _expiresAt, ...rest } = tokens
  return rest
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `native` for an app reached on this machine, `web` for one served from elsewhere (OIDC's application types). */
function applicationType(redirectUrl: string): 'native' | 'web' {
  try {
    return LOOPBACK_HOSTS.has(new URL(redirectUrl).hostname) ? 'native' : 'web'
  }
  catch {
    return 'web'
  }
}

export function createMcpOAuthProvider(options: McpOAuthProviderOptions): McpOAuthProvider {
  const { store, refreshMarginMs = 60_000 } = options
  const now = options.now ?? Date.now
  const withLock = options.withLock ?? createLocalLock()
  let refreshing: Promise<void> | undefined
  /** Set while this provider runs a refresh through `auth()`, which reads the tokens it is replacing. */
  let insideRefresh = false

  const read = async () => ({ ...(await store.read()) })
  const update = async (patch: (record: McpOAuthRecord) => McpOAuthRecord) => store.write(patch(await read()))
  const expired = (tokens: McpOAuthRecord['tokens']) => tokens?.expires_at !== undefined && tokens.expires_at - refreshMarginMs <= now()

  /**
   * Refreshes the tokens once, whoever asks, when `stale` still holds inside the lock (another tab or request may
   * have refreshed while this one waited). A refresh that fails leaves no tokens, so the user signs in again.
   */
  function refresh(stale: (tokens: McpOAuthRecord['tokens']) => boolean): Promise<void> {
    refreshing ??= withLock(async () => {
      const current = await read()
      if (!current.tokens?.refresh_token || !stale(current.tokens)) return
      insideRefresh = true
      try {
        const result = await auth(provider, { serverUrl: options.serverUrl, fetchFn: options.fetch })
        if (result !== 'AUTHORIZED') await update(({ tokens: _tokens, ...rest }) => rest)
      }
      catch {
        await update(({ tokens: _tokens, ...rest }) => rest)
      }
      finally {
        insideRefresh = false
      }
    }).finally(() => {
      refreshing = undefined
    })
    return refreshing
  }

  const kind = { application_type: applicationType(options.redirectUrl) }
  const provider: McpOAuthProvider = {
    get redirectUrl() {
      return options.redirectUrl
    },
    clientMetadataUrl: options.clientMetadataUrl,
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: options.clientName ?? 'Plugboard',
        redirect_uris: [options.redirectUrl],
        // the spec asks registering clients to say which kind they are; authorization servers apply their
        // redirect rules by it (a web app served from localhost counts as native). The SDK's type predates the field.
        ...kind,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? 'none',
      }
    },
    async state() {
      const state = randomState()
      await update(record => ({ ...record, state }))
      return state
    },
    async clientInformation() {
      return (await read()).clientInformation ?? options.preRegistered
    },
    async saveClientInformation(clientInformation) {
      await update(record => ({ ...record, clientInformation }))
    },
    async tokens(): Promise<OAuthTokens | undefined> {
      const { tokens } = await read()
      if (!tokens || insideRefresh) return tokens
      if (expired(tokens)) {
        if (!tokens.refresh_token) return undefined
        await refresh(expired)
        return withoutRefreshToken((await read()).tokens)
      }
      return withoutRefreshToken(tokens)
    },
    async saveTokens(tokens) {
      const expiresAt = typeof tokens.expires_in === 'number' ? now() + tokens.expires_in * 1000 : undefined
      await update(({ authorizationUrl: _url, state: _state, codeVerifier: _verifier, ...record }) => ({ ...record, tokens: { ...tokens, ...(expiresAt ? { expires_at: expiresAt } : {}) } }))
    },
    async redirectToAuthorization(requested) {
      const authorizationUrl = withGrantedScopes(requested, (await read()).tokens?.scope)
      await update(record => ({ ...record, authorizationUrl: authorizationUrl.href }))
      await options.onAuthorizationUrl?.(authorizationUrl)
    },
    async saveCodeVerifier(codeVerifier) {
      await update(record => ({ ...record, codeVerifier }))
    },
    async codeVerifier() {
      const { codeVerifier } = await read()
      if (!codeVerifier) throw new Error('No sign-in is under way for this server (no PKCE verifier): press Sign in again.')
      return codeVerifier
    },
    addClientAuthentication: options.addClientAuthentication,
    async invalidateCredentials(scope) {
      await update((record) => {
        if (scope === 'all') return {}
        const next = { ...record }
        if (scope === 'client') delete next.clientInformation
        if (scope === 'tokens') delete next.tokens
        if (scope === 'verifier') delete next.codeVerifier
        if (scope === 'discovery') delete next.discovery
        return next
      })
    },
    async saveDiscoveryState(discovery) {
      // metadata that names another issuer is refused before any registration or authorization request uses it
      checkDiscoveredIssuer(discovery)
      await update(record => ({ ...record, discovery }))
    },
    async discoveryState() {
      const { discovery } = await read()
      try {
        if (discovery) checkDiscoveredIssuer(discovery)
        return discovery
      }
      catch {
        // kept by an earlier version that did not check: discovered again, and refused then
        return undefined
      }
    },
    record: read,
    async renewRejected(accessToken) {
      await refresh(tokens => tokens?.access_token === accessToken)
      const { tokens } = await read()
      return tokens && tokens.access_token !== accessToken ? withoutRefreshToken(tokens) : undefined
    },
    async signOut() {
      await withLock(async () => store.write({}))
    },
  }
  return provider
}
