import type { H3Event } from 'h3'
import { bodyTooLargeError } from '../http/read-bounded-body'
import { SHARE_BODY_LIMIT_BYTES, SHARE_TOO_LARGE_MESSAGE } from '#shared/share/share-snapshot'
import { MAX_BLOB_BYTES, MAX_PUSH_BYTES } from '#shared/sync/sync-limits'
import { chatBodyLimitBytes, imageChatBodyLimitBytes, SMALL_BODY_LIMIT_BYTES, TOOL_BODY_LIMIT_BYTES } from '../http/request-limits'
import { accountsOn } from '../accounts/accounts-mode'
import { requireOwner } from '../accounts/request-owner'
import { isSignedIn, readBrowserSession } from './browser-session'
import { crossSiteReason } from './cross-site'
import { consumeRateLimit } from './rate-limit'
import type { RateLimitBucket } from './rate-limit'
import { codedError, userError } from '../http/user-error'

/** Routes that answer without a signed-in session in password mode: the ones that sign in. */
const SIGN_IN_ROUTES = new Set(['/api/auth/status', '/api/auth/sign-in'])

/** With accounts on, the routes that answer before an account signs in: signing up (admin or invite) and in. */
const ACCOUNT_SIGN_IN_ROUTES = new Set(['/api/auth/status', '/api/accounts/sign-up', '/api/accounts/sign-in', '/api/accounts/sign-out'])

/**
 * Model routes and server tool routes: only the app's own page may use them, and each chat request and each tool
 * run is counted (server tools spend the server's network and time like model calls spend its key).
 */
const MODEL_ROUTES: { prefix: string, bucket: RateLimitBucket }[] = [
  { prefix: '/api/openrouter/', bucket: 'model' },
  { prefix: '/api/demo/', bucket: 'demo' },
  { prefix: '/api/tools/', bucket: 'tool' },
  // The MCP relay spends the server's network on a user's behalf, like a server tool.
  { prefix: '/api/mcp/', bucket: 'tool' },
  // Background chats spend the server's key like the proxy does; starting one counts as one model request.
  { prefix: '/api/chats/', bucket: 'model' },
  // Workflows belong to a session; running one starts a background chat (one model request).
  { prefix: '/api/workflows/', bucket: 'model' },
  // Share links belong to a session; sharing one stores up to a few MB, counted like a tool run.
  { prefix: '/api/share-links/', bucket: 'tool' },
]

/**
 * Shared chats are read by whoever holds the link, with no session and without the access password (the link's
 * token is the credential); each read is counted against the client's IP.
 */
const SHARED_READ_PREFIX = '/api/shared/'

/** Routes whose bodies carry a whole chat; every other /api route accepts only a small body. */
function isChatRoute(path: string): boolean {
  return path.endsWith('/chat/completions') || path === '/api/chats'
}

/** Chat routes whose requests may carry images: every chat route but the demo's (the demo reads no images). */
function isImageChatRoute(path: string): boolean {
  return isChatRoute(path) && !path.startsWith('/api/demo/')
}

/** The body limit of a chat route, from the operator's settings. */
export function chatRouteBodyLimit(event: H3Event, path: string): number {
  const config = useRuntimeConfig(event) as { maxBodyBytes?: unknown, maxImageBodyBytes?: unknown }
  const chatLimit = chatBodyLimitBytes(config.maxBodyBytes)
  return isImageChatRoute(path) ? imageChatBodyLimitBytes(config.maxImageBodyBytes, chatLimit) : chatLimit
}

/** Starting a workflow's run, counted like starting a chat. */
function isWorkflowRun(path: string): boolean {
  return path.startsWith('/api/workflows/') && path.endsWith('/run')
}

/** Routes whose bodies carry one tool's arguments or result. */
function isToolRoute(path: string): boolean {
  return path.startsWith('/api/tools/') || path.startsWith('/api/mcp/') || (path.startsWith('/api/chats/') && path.endsWith('/tool-results'))
}

/**
 * The operator's access password (`NUXT_ACCESS_PASSWORD`), or '' when the app is open. With accounts on
 * (`NUXT_ACCOUNTS=passkeys`) the accounts decide who may come in and the password is not asked.
 */
export function accessPassword(event: H3Event): string {
  if (accountsOn(event)) return ''
  return String(useRuntimeConfig(event).accessPassword ?? '')
}

/**
 * Decides whether an /api request may go on, cheapest check first: a declared body over the route's limit
 * (413), another site (403), password mode without sign-in (401), a model route without the app's session
 * (401), a spent rate limit (429). Throws the refusal; returns when the request may proceed.
 */
export async function guardApiRequest(event: H3Event): Promise<void> {
  const path = event.path.split('?')[0]!
  const limit = isChatRoute(path)
    ? chatRouteBodyLimit(event, path)
    : isToolRoute(path) ? TOOL_BODY_LIMIT_BYTES : path === '/api/share-links' ? SHARE_BODY_LIMIT_BYTES : path === '/api/sync/push' ? MAX_PUSH_BYTES : path.startsWith('/api/sync/blobs/') ? MAX_BLOB_BYTES : SMALL_BODY_LIMIT_BYTES
  const declared = Number(getRequestHeader(event, 'content-length') ?? 0)
  if (declared > limit) throw bodyTooLargeError(event, limit, path === '/api/share-links' ? SHARE_TOO_LARGE_MESSAGE : undefined)

  const crossSite = crossSiteReason(event)
  if (crossSite) throw codedError(403, 'Forbidden', crossSite)

  // a shared chat's link is its own credential: no session, password or account is asked
  if (path.startsWith(SHARED_READ_PREFIX)) {
    if (event.method !== 'GET' && event.method !== 'HEAD') throw userError(405, 'Method Not Allowed', 'server.access.sharedReadOnly')
    return consumeRateLimit(event, 'tool', undefined)
  }
  // with accounts on, every route but signing in needs a signed-in account that still exists (401 otherwise)
  if (accountsOn(event)) {
    if (ACCOUNT_SIGN_IN_ROUTES.has(path)) return
    await requireOwner(event)
  }
  const password = accessPassword(event)
  if (SIGN_IN_ROUTES.has(path)) return
  const session = await readBrowserSession(event)
  if (password && !isSignedIn(session, password)) {
    throw userError(401, 'Unauthorized', 'server.access.passwordSignIn')
  }

  // with a slash added, `/api/tools` (the list) and `/api/chats` fall under their prefixes too
  const modelRoute = MODEL_ROUTES.find(route => `${path}/`.startsWith(route.prefix))
  if (!modelRoute) return
  if (!session) {
    throw userError(401, 'Unauthorized', 'server.access.noSession')
  }
  const bucket = countedBucket(event.method, path, modelRoute.bucket)
  // counted per owner: per account with accounts on (all its devices share one budget), else per session
  if (bucket) await consumeRateLimit(event, bucket, (await requireOwner(event)).ownerId)
}

/**
 * The budget a request of a session-bound route spends, or undefined for the reads that are not counted (a job's
 * record, the tool list). Besides the requests that spend the key or the server's network, a background chat's
 * event stream (each one holds a socket) and its answers (each one wakes a running chat) are counted.
 */
function countedBucket(method: string, path: string, routeBucket: RateLimitBucket): RateLimitBucket | undefined {
  if (path.startsWith('/api/chats/')) {
    // the router also matches these with a trailing slash
    const bare = path.replace(/\/+$/, '')
    if (method === 'GET' && bare.endsWith('/events')) return 'events'
    if (method === 'POST' && /\/(?:approvals|questions|tool-results|stop)$/.test(bare)) return 'chat-answer'
  }
  if (method === 'POST' && (isChatRoute(path) || isWorkflowRun(path) || routeBucket === 'tool')) return routeBucket
  if (method === 'DELETE' && path.startsWith('/api/share-links/')) return routeBucket
  return undefined
}
