/**
 * The MCP servers a user added, kept in localStorage like the provider key (the bearer token too: the settings say
 * so). Read defensively: stored data is input like any other.
 */
import * as z from 'zod/mini'
import { MAX_MCP_SERVERS } from '#shared/mcp/mcp-limits'
import { isRecord } from '#shared/types/is-record'
import { persistedSetting, readPersistedSetting } from '../persisted-setting'
import type { PersistedSetting } from '../persisted-setting'
import { mcpServerPrefix } from '#shared/mcp/mcp-tool-name'

export const MCP_SERVERS_STORAGE_KEY = 'plugboard:mcp-servers:v1'

export interface McpServerSetting {
  id: string
  /** Shown in Settings, and the tools' category and name prefix (`name__tool`). */
  name: string
  /** The server's Streamable HTTP endpoint. */
  url: string
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
}

export interface McpServerInput {
  name: string
  url: string
  token?: string
}

export type McpServerInputErrors = Partial<Record<'name' | 'url' | 'token', string>>

const MAX_TOKEN_CHARS = 4096

/** What is wrong with a server the user is adding ({} when it can be added). */
export function validateMcpServerInput(input: McpServerInput, existing: readonly McpServerSetting[]): McpServerInputErrors {
  const errors: McpServerInputErrors = {}
  const name = input.name.trim()
  if (!name) errors.name = 'Give the server a name: its tools are listed under it.'
  else if (name.length > 40) errors.name = 'Use at most 40 characters.'
  else if (existing.some(server => mcpServerPrefix(server.name) === mcpServerPrefix(name))) errors.name = 'Another server already has this name.'
  let url: URL | undefined
  try {
    url = new URL(input.url.trim())
  }
  catch {
    errors.url = 'Enter the server\'s full URL, e.g. https://mcp.example.com/mcp'
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') errors.url = 'Only http(s) servers (Streamable HTTP) can be added.'
  else if (url && (url.username || url.password)) errors.url = 'Put credentials in the token field, not in the URL.'
  const token = input.token?.trim() ?? ''
  if (token.length > MAX_TOKEN_CHARS) errors.token = `The token is longer than ${MAX_TOKEN_CHARS} characters.`
  else if (/[\s\r\n]/.test(token)) errors.token = 'A bearer token has no spaces or line breaks.'
  if (existing.length >= MAX_MCP_SERVERS) errors.url = `At most ${MAX_MCP_SERVERS} servers can be added.`
  return errors
}

/** A list of servers; an entry that is not well formed (or one too many) is dropped alone. */
const storedServersSchema = z.pipe(z.array(z.unknown()), z.transform((items) => {
  const servers: McpServerSetting[] = []
  for (const item of items.slice(0, MAX_MCP_SERVERS)) {
    if (!isRecord(item)) continue
    const { id, name, url, token } = item
    if (typeof id !== 'string' || typeof name !== 'string' || typeof url !== 'string') continue
    if (Object.keys(validateMcpServerInput({ name, url, token: typeof token === 'string' ? token : undefined }, servers)).length > 0) continue
    servers.push({ id, name: name.trim(), url: url.trim(), ...(typeof token === 'string' && token ? { token } : {}) })
  }
  return servers as readonly McpServerSetting[]
}))

/** What the saved list is read with: its shape, its default and its name in a notice. */
export const mcpServersSetting = { schema: storedServersSchema, defaults: (): readonly McpServerSetting[] => [], label: 'MCP servers' }

/** The saved list, following other tabs' changes (see `persistedSetting`). */
export function useSavedMcpServers(storage: Storage | null): PersistedSetting<readonly McpServerSetting[]> {
  return persistedSetting(MCP_SERVERS_STORAGE_KEY, { ...mcpServersSetting, storage })
}

/** The saved servers; entries that are not well formed are dropped. */
export function readMcpServerSettings(storage: Pick<Storage, 'getItem'> | null): McpServerSetting[] {
  let raw: string | null = null
  try {
    raw = storage?.getItem(MCP_SERVERS_STORAGE_KEY) ?? null
  }
  catch {}
  return [...readPersistedSetting(raw, MCP_SERVERS_STORAGE_KEY, mcpServersSetting)]
}

/** Saves the list; false when storage refused it (full, blocked). */
export function writeMcpServerSettings(storage: Pick<Storage, 'setItem'> | null, servers: readonly McpServerSetting[]): boolean {
  try {
    storage?.setItem(MCP_SERVERS_STORAGE_KEY, JSON.stringify(servers))
    return storage !== null
  }
  catch {
    return false
  }
}
