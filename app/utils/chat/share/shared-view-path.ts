import { SHARED_VIEW_PREFIX } from '#shared/share/share-constants'

/**
 * Whether the page is a shared chat (`/s/<token>`): it shows a snapshot and runs nothing, so start-up leaves out
 * what only a working chat needs (the server's tool list, MCP servers, the password gate).
 */
export function isSharedViewPath(pathname: string): boolean {
  return pathname.startsWith(SHARED_VIEW_PREFIX)
}
