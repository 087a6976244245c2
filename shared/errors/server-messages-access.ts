/**
 * The English of the server's general refusals (a body too large or not JSON, a request from another site, no
 * session, a passkey on the wrong origin) and of the OpenRouter proxy's policy on the server's key, by code. Merged
 * into `SERVER_MESSAGES` (server-messages.ts); the app shows `codes.server.*` in the user's language.
 */
const WEB_SEARCH_OFF = 'is web search, billed per request beyond tokens, and this server\'s key does not allow it (the operator can, with NUXT_OPENROUTER_ALLOW_WEB_SEARCH=true).'
const ROUTING_OFF = 'is provider routing, which can pick pricier providers, and this server\'s key does not allow it (the operator can, with NUXT_OPENROUTER_ALLOW_PROVIDER_ROUTING=true).'

export const ACCESS_SERVER_MESSAGES = {
  'server.body.tooLarge': 'The request body is larger than this server accepts ({size}). Start a new chat or send less.',
  'server.body.unreadable': 'The request body could not be read: {reason}',
  'server.body.notJson': 'The request body is not valid JSON: {reason}',
  'server.access.crossSiteFetch': 'Requests from other sites are refused (Sec-Fetch-Site: {fetchSite}).',
  'server.access.crossSiteOrigin': 'Requests from other sites are refused (Origin: {origin}).',
  'server.access.sharedReadOnly': 'A shared chat can only be read.',
  'server.access.passwordSignIn': 'Sign in to use this server: it is protected by a password.',
  'server.access.noSession': 'No session: the model, tool and chat routes answer only the app\'s own page. Reload the app.',
  'server.passkey.originMisconfigured': 'NUXT_ACCOUNTS_ORIGIN is not an origin: {origin}',
  'server.passkey.wrongOrigin': 'Passkeys of this server work on {site} only (Origin: {origin}).',
  'server.openrouter.notProxied': 'Only chat/completions and models are proxied to OpenRouter.',
  'server.openrouter.useMethod': 'Use {method} for /api/openrouter/{path}.',
  'server.openrouter.redirect': 'The model provider answered with a redirect ({status}), which this server does not follow.',
  'server.openrouter.notObject': 'The request body must be a JSON object.',
  'server.openrouter.noMessages': 'The request must carry a messages array.',
  'server.openrouter.tooManyMessages': 'The request carries {count} messages; at most {max} are accepted. Start a new chat.',
  'server.openrouter.tooManyTools': 'The request offers {count} tools; at most {max} are accepted.',
  'server.openrouter.toolsNotArray': 'The request offers tools that are not an array; at most {max} are accepted.',
  'server.openrouter.oneChoice': 'Only one choice per request (n = 1) is allowed on this server.',
  'server.openrouter.noModel': 'The request must name a model.',
  'server.openrouter.modelNotAllowed': 'The model {model} is not allowed on this server. Allowed: {allowed}.',
  'server.openrouter.webSearchField': `The field "{field}" ${WEB_SEARCH_OFF}`,
  'server.openrouter.webSearchModel': `The model {model} ${WEB_SEARCH_OFF}`,
  'server.openrouter.routingField': `The field "{field}" ${ROUTING_OFF}`,
  'server.openrouter.routingModel': `The model {model} ${ROUTING_OFF}`,
  'server.openrouter.unknownField': 'The request field {fields} is not accepted on this server\'s key. Accepted: {accepted}.',
  'server.openrouter.unknownFields': 'The request fields {fields} are not accepted on this server\'s key. Accepted: {accepted}.',
  'server.openrouter.invalidField': 'The request field "{field}" is not accepted on this server\'s key: {reason}.',
} as const
