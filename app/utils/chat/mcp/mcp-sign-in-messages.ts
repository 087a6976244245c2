/**
 * The sign-in's own failures (mcp-server-sign-in.ts), in English. Settings shows each in the user's language
 * (`mcp.signIn.<key>` in the catalogs); a file of its own, so Settings gets these words without the sign-in's code.
 */
export const MCP_SIGN_IN_MESSAGES = {
  popupBlocked: 'The browser blocked the sign-in window. Allow pop-ups for this site, then press Sign in again.',
  superseded: 'That sign-in was replaced by a newer one (another tab or a reconnection started it). Press Sign in again.',
} as const
