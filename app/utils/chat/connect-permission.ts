import {
  CONNECT_ORIGINS_COOKIE,
  connectOriginOf,
  OPENROUTER_ORIGIN,
  parseConnectOrigins,
  withConnectOrigin,
} from '#shared/security/connect-origins'

/** One year: the endpoints a user configured stay allowed until they change them. */
const COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`
  return document.cookie.split('; ').find(item => item.startsWith(prefix))?.slice(prefix.length)
}

/** The origins this page's Content-Security-Policy allows, as the cookie listed them when the page loaded. */
let allowedAtLoad: Set<string> | undefined

/**
 * Makes sure the page may connect to the endpoint at `baseURL`. The page's CSP is fixed when it loads, so an
 * endpoint it does not allow yet is added to the connect cookie and the page reloads once to pick the new policy
 * up (guarded, so blocked cookies cannot cause a reload loop). Returns true when a reload was started.
 */
export function ensureConnectPermission(baseURL: string): boolean {
  if (typeof document === 'undefined') return false
  const origin = connectOriginOf(baseURL)
  if (!origin || origin === window.location.origin.toLowerCase() || origin === OPENROUTER_ORIGIN) return false
  const listed = parseConnectOrigins(readCookie(CONNECT_ORIGINS_COOKIE))
  allowedAtLoad ??= new Set(listed)
  if (allowedAtLoad.has(origin)) return false
  const secure = window.location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `${CONNECT_ORIGINS_COOKIE}=${withConnectOrigin(listed, origin)}; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure}`
  const guard = `plugboard:connect-reload:${origin}`
  if (sessionStorage.getItem(guard)) return false
  sessionStorage.setItem(guard, '1')
  window.location.reload()
  return true
}
