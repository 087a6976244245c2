/**
 * The browser's side of MCP sign-in: where a server's OAuth record is kept (localStorage, one key per server, so
 * every tab of this browser shares it and nothing reaches the app's server), the Web Lock that makes a refresh run
 * once across tabs, the popup, and the channel the callback page answers on.
 */
import { createLocalLock } from '#shared/mcp/oauth/local-lock'
import { readOAuthRecord } from '#shared/mcp/oauth/mcp-oauth-store'
import type { McpOAuthRecord } from '#shared/mcp/oauth/mcp-oauth-store'
import { readSignInMessage } from '#shared/mcp/oauth/mcp-sign-in-answer'
import { parseJson } from '#shared/security/parse-json'
import type { McpSignInAnswer } from '#shared/mcp/oauth/mcp-sign-in-answer'

export { MCP_OAUTH_CALLBACK_PATH } from '#shared/mcp/oauth/mcp-sign-in-answer'
export const MCP_OAUTH_CLIENT_METADATA_PATH = '/oauth/client-metadata.json'
/** The callback page answers here; a BroadcastChannel only ever reaches pages of the same origin. */
export const MCP_OAUTH_CHANNEL = 'plugboard:mcp-oauth'
const STORAGE_PREFIX = 'plugboard:mcp-oauth:v1:'

export function mcpOAuthStorageKey(serverId: string): string {
  return `${STORAGE_PREFIX}${serverId}`
}

/** A store read without waiting (localStorage), so Settings can show the sign-in state at once. */
export interface SyncOAuthStore {
  read: () => McpOAuthRecord
  write: (record: McpOAuthRecord) => void
}

/** One server's record in `storage`; a record that cannot be read counts as none (the user signs in again). */
export function createStorageOAuthStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null, serverId: string): SyncOAuthStore {
  const key = mcpOAuthStorageKey(serverId)
  let memory: McpOAuthRecord = {}
  return {
    read() {
      try {
        const raw = storage?.getItem(key)
        return raw ? readOAuthRecord(parseJson(raw)) : storage ? {} : memory
      }
      catch {
        return {}
      }
    },
    write(record) {
      memory = record
      try {
        if (Object.keys(record).length === 0) storage?.removeItem(key)
        else storage?.setItem(key, JSON.stringify(record))
      }
      catch {}
    },
  }
}

/** Forgets a removed server's record (its tokens stay in no corner of this browser). */
export function forgetMcpSignIn(storage: Pick<Storage, 'removeItem'> | null, serverId: string): void {
  try {
    storage?.removeItem(mcpOAuthStorageKey(serverId))
  }
  catch {}
}

/** Runs `task` holding this server's Web Lock (every tab of the origin waits its turn); one at a time without. */
export function createServerLock(serverId: string, locks: LockManager | undefined = globalThis.navigator?.locks): <T>(task: () => Promise<T>) => Promise<T> {
  if (!locks) return createLocalLock()
  const name = `plugboard:mcp-oauth:${serverId}`
  return task => locks.request(name, { mode: 'exclusive' }, task) as Promise<Awaited<ReturnType<typeof task>>>
}

/** The app's client ID metadata document, when the app is served over https (CIMD requires it); else DCR is used. */
export function appClientMetadataUrl(origin: string): string | undefined {
  return origin.startsWith('https://') ? `${origin}${MCP_OAUTH_CLIENT_METADATA_PATH}` : undefined
}

/** Opens the sign-in popup in the click's turn (a popup opened later is blocked); its address is set once known. */
export function openSignInPopup(): Window | null {
  const width = 520
  const height = 680
  const left = Math.max(0, Math.round((window.screenX ?? 0) + ((window.outerWidth ?? width) - width) / 2))
  const top = Math.max(0, Math.round((window.screenY ?? 0) + ((window.outerHeight ?? height) - height) / 2))
  return window.open('about:blank', 'plugboard-mcp-sign-in', `popup,width=${width},height=${height},left=${left},top=${top}`)
}

/** Calls `onAnswer` with each answer a callback page of this origin sends; returns the unsubscribe. */
export function listenForSignInAnswers(onAnswer: (answer: McpSignInAnswer) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {}
  const channel = new BroadcastChannel(MCP_OAUTH_CHANNEL)
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const answer = readSignInMessage(event.data)
    if (answer) onAnswer(answer)
  }
  return () => channel.close()
}

/** The callback page's side: hands the answer to the page that started the sign-in. */
export function sendSignInAnswer(answer: McpSignInAnswer): void {
  const channel = new BroadcastChannel(MCP_OAUTH_CHANNEL)
  channel.postMessage(answer)
  channel.close()
}
