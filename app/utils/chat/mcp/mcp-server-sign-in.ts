/**
 * Sign-in for one MCP server in Settings: the OAuth provider its connection uses, "Sign in" (a popup on the
 * authorization page, whose callback answers on a same-origin channel), the code traded for tokens once across tabs
 * (under the server's Web Lock, the `state` checked inside it), and "Sign out" (the session ended on the server, the
 * tokens forgotten, then revoked where the server offers it). Loaded with the MCP client's code,
 * never with the page.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { createMcpOAuthProvider } from '#shared/mcp/oauth/mcp-oauth-provider'
import type { McpOAuthProvider } from '#shared/mcp/oauth/mcp-oauth-provider'
import { finishMcpSignIn, isAnswerFor } from '#shared/mcp/oauth/mcp-sign-in'
import { revokeMcpTokens } from '#shared/mcp/oauth/mcp-token-revocation'
import { MCP_OAUTH_CALLBACK_PATH } from '#shared/mcp/oauth/mcp-sign-in-answer'
import type { McpSignInAnswer } from '#shared/mcp/oauth/mcp-sign-in-answer'
import { appClientMetadataUrl, createServerLock, createStorageOAuthStore, openSignInPopup } from './mcp-oauth-browser'
import { MCP_SIGN_IN_MESSAGES } from './mcp-sign-in-messages'

/** 'needed': the server asked for a sign-in; 'signed-in': tokens are kept for it. */
export type McpSignInStatus = 'needed' | 'signed-in' | undefined

export interface McpServerSignInOptions {
  serverId: string
  serverUrl: string
  storage: Storage | null
  /** The fetch of the server's connection (direct or through the relay), for discovery and token requests. */
  fetch: FetchLike
  /** Called when the sign-in status or its error changes. */
  onChange: () => void
  /** Connects the server again (after a sign-in or sign-out). */
  reconnect: () => Promise<void>
  /** Ends the connection's session on the server (sign-out, while its token still works). */
  endSession?: () => Promise<void>
  /** @default location.origin */
  origin?: string
}

export interface McpServerSignIn {
  provider: McpOAuthProvider
  status: () => McpSignInStatus
  /** Why the last sign-in failed, in plain words. */
  error: () => string | undefined
  /** Opens the sign-in popup: call it in the click's turn. */
  start: () => void
  /** Finishes the sign-in this answer belongs to (any other answer is ignored). */
  handle: (answer: McpSignInAnswer) => Promise<void>
  signOut: () => Promise<void>
}

const text = MCP_SIGN_IN_MESSAGES

export function createMcpServerSignIn(options: McpServerSignInOptions): McpServerSignIn {
  const origin = options.origin ?? globalThis.location?.origin ?? ''
  const store = createStorageOAuthStore(options.storage, options.serverId)
  const withLock = createServerLock(options.serverId)
  let popup: Window | null = null
  let needed = false
  let error: string | undefined

  const changed = (patch: { needed?: boolean, error?: string | undefined }) => {
    if (patch.needed !== undefined) needed = patch.needed
    if ('error' in patch) error = patch.error
    options.onChange()
  }

  const provider = createMcpOAuthProvider({
    serverUrl: options.serverUrl,
    store,
    redirectUrl: `${origin}${MCP_OAUTH_CALLBACK_PATH}`,
    clientMetadataUrl: appClientMetadataUrl(origin),
    withLock,
    fetch: options.fetch,
    onAuthorizationUrl(url) {
      if (popup && !popup.closed) popup.location.href = url.href
      changed({ needed: true })
    },
  })

  return {
    provider,
    status: () => (store.read().tokens ? 'signed-in' : needed || store.read().authorizationUrl ? 'needed' : undefined),
    error: () => error,
    start() {
      popup = openSignInPopup()
      if (!popup) return changed({ error: text.popupBlocked })
      changed({ error: undefined })
      const pending = store.read().authorizationUrl
      if (pending) popup.location.href = pending
      // no authorization request yet (signed out, or the first connection did not ask): connecting starts one
      else void options.reconnect()
    },
    async handle(answer) {
      let finished = false
      try {
        finished = await withLock(async () => {
          // another tab may have traded this code already: its tokens are then here and the state is gone
          if (!(await isAnswerFor(provider, answer))) return false
          await finishMcpSignIn(provider, answer, { serverUrl: options.serverUrl, fetch: options.fetch })
          return true
        })
      }
      catch (failure) {
        popup?.close()
        return changed({ error: failure instanceof Error ? failure.message : String(failure) })
      }
      if (!finished && !store.read().tokens) {
        // only the tab that opened the popup says so; the others were not waiting for this answer
        if (popup) changed({ error: text.superseded })
        return
      }
      if (!finished && !needed) return
      popup?.close()
      popup = null
      changed({ needed: false, error: undefined })
      await options.reconnect()
    },
    async signOut() {
      const before = await provider.record()
      // the session ends while its token still works: the server learns it now, not when the token expires
      await options.endSession?.()
      await provider.signOut()
      changed({ needed: false, error: undefined })
      await revokeMcpTokens(before, { fetch: options.fetch })
      await options.reconnect()
    },
  }
}
