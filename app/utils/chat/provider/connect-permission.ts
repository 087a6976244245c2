import { parseJson } from '#shared/security/parse-json'
import {
  CONNECT_ORIGINS_COOKIE,
  connectOriginOf,
  OPENROUTER_ORIGIN,
  parseConnectOrigins,
  withConnectOrigin,
} from '#shared/security/connect-origins'

/** One year: the endpoints a user configured stay allowed until they change them. */
const COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365

/** Settings being edited when the page reloaded to allow a new endpoint: the form reopens with them. */
const SETTINGS_DRAFT_KEY = 'plugboard:settings-draft'

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`
  return document.cookie.split('; ').find(item => item.startsWith(prefix))?.slice(prefix.length)
}

/** The origins this page's Content-Security-Policy allows, as the cookie listed them when the page loaded. */
let allowedAtLoad: Set<string> | undefined

function allowedOrigins(): Set<string> {
  return (allowedAtLoad ??= new Set(parseConnectOrigins(readCookie(CONNECT_ORIGINS_COOKIE))))
}

/** The endpoint's origin when this page may not connect to it yet, else undefined (allowed, or not a URL). */
export function blockedConnectOrigin(baseURL: string): string | undefined {
  if (typeof document === 'undefined') return undefined
  const origin = connectOriginOf(baseURL)
  if (!origin || origin === window.location.origin.toLowerCase() || origin === OPENROUTER_ORIGIN) return undefined
  return allowedOrigins().has(origin) ? undefined : origin
}

function addToCookie(origin: string) {
  const listed = parseConnectOrigins(readCookie(CONNECT_ORIGINS_COOKIE))
  const secure = window.location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `${CONNECT_ORIGINS_COOKIE}=${withConnectOrigin(listed, origin)}; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure}`
}

/**
 * Makes sure the page may connect to the endpoint at `baseURL`. The page's CSP is fixed when it loads, so an
 * endpoint it does not allow yet is added to the connect cookie and the page reloads once to pick the new policy
 * up (guarded, so blocked cookies cannot cause a reload loop). Returns true when a reload was started.
 */
export function ensureConnectPermission(baseURL: string): boolean {
  const origin = blockedConnectOrigin(baseURL)
  if (!origin) return false
  addToCookie(origin)
  const guard = `plugboard:connect-reload:${origin}`
  if (sessionStorage.getItem(guard)) return false
  sessionStorage.setItem(guard, '1')
  // the page being left says so (tests wait for a ready page that is not about to go away)
  Object.assign(window, { __plugboardReloading: true })
  window.location.reload()
  return true
}

/** Allows the endpoint at `baseURL` and reloads, keeping `draft` (the settings form's content) to reopen with. */
export function allowConnectAndReload(baseURL: string, draft: unknown): void {
  const origin = connectOriginOf(baseURL)
  if (!origin) return
  addToCookie(origin)
  sessionStorage.setItem(SETTINGS_DRAFT_KEY, JSON.stringify(draft))
  window.location.reload()
}

/** Whether the settings form should reopen with a draft kept across an allow-and-reload. */
export function hasSettingsDraft(): boolean {
  return typeof sessionStorage !== 'undefined' && sessionStorage.getItem(SETTINGS_DRAFT_KEY) !== null
}

/** The kept draft (removed as it is read), or undefined. The caller validates it like stored settings. */
export function takeSettingsDraft(): unknown {
  if (typeof sessionStorage === 'undefined') return undefined
  const text = sessionStorage.getItem(SETTINGS_DRAFT_KEY)
  sessionStorage.removeItem(SETTINGS_DRAFT_KEY)
  if (text === null) return undefined
  try {
    return parseJson(text)
  }
  catch {
    return undefined
  }
}
