/**
 * The English of the MCP relay's refusals (server/utils/mcp/mcp-proxy.ts) a person reads in Settings → MCP servers,
 * by code. Merged into `SERVER_MESSAGES` (server-messages.ts); the app shows `codes.server.relay.*` in the user's
 * language.
 */
export const RELAY_SERVER_MESSAGES = {
  'server.relay.off': 'This server relays no MCP servers: its operator has not set NUXT_MCP_ALLOWED_HOSTS.',
  'server.relay.needsUrl': 'The relay needs ?url= with the MCP server\'s absolute http(s) URL.',
  'server.relay.plainUrlOnly': 'Only http(s) MCP servers without a user name or password in the URL are relayed.',
  'server.relay.hostNotAllowed': '{host} is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS).',
  'server.relay.methods': 'MCP uses GET, POST and DELETE.',
  'server.relay.unreachable': 'Could not reach the MCP server at {host}: {reason}',
  'server.relay.redirect': 'The MCP server answered with a redirect ({status}), which the relay does not follow.',
  'server.relay.brokeOff': 'The MCP server\'s answer broke off: {reason}',
  'server.relay.tooLarge': 'The MCP server\'s answer is larger than {megabytes} MB.',
} as const
