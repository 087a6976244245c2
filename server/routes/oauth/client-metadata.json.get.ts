/**
 * The app's OAuth client ID metadata document: an MCP authorization server that supports client ID metadata
 * documents reads this URL as the app's `client_id` instead of asking it to register. It names the app's sign-in
 * callback; the client is public (a browser keeps no secret).
 */
export default defineEventHandler((event) => {
  const origin = getRequestURL(event).origin
  setResponseHeader(event, 'cache-control', 'public, max-age=3600')
  return {
    client_id: `${origin}/oauth/client-metadata.json`,
    client_name: 'Plugboard',
    client_uri: origin,
    redirect_uris: [`${origin}/mcp/oauth/callback`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
})
