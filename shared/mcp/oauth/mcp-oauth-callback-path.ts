/** The app route the authorization server sends the sign-in popup back to (its own module: the start-up plugin needs only this). */
export const MCP_OAUTH_CALLBACK_PATH = '/mcp/oauth/callback'
