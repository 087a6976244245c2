import type { H3Event } from 'h3'
import { accessPasswordFingerprint } from './access-password'
import { fromTrustedProxy } from './client-address'

/** Name of the sealed session cookie (HttpOnly, SameSite=Lax; see nuxt.config's runtimeConfig.session). */
export const SESSION_COOKIE_NAME = 'plugboard-session'

/** What Plugboard keeps in the sealed session cookie. */
export interface BrowserSessionData {
  /** When the app's page issued the session (ms). A session without it was not issued by a page load. */
  issuedAt?: number
  /** Set at sign-in in password mode: the fingerprint of the password signed in with. */
  accessKey?: string
  /** Set at sign-in with a passkey (`NUXT_ACCOUNTS=passkeys`): the account this browser acts for. */
  accountId?: string
}

/** A session as read from the request: its id (rate limits count per id) and data. */
export interface BrowserSession extends BrowserSessionData {
  id: string
}

function hasSessionCookie(event: H3Event): boolean {
  const cookies = parseCookies(event)
  return typeof cookies[SESSION_COOKIE_NAME] === 'string' && cookies[SESSION_COOKIE_NAME] !== ''
}

/**
 * Secure cookies only over HTTPS: on plain http (localhost, a LAN) browsers would drop them. `X-Forwarded-Proto`
 * counts only from a trusted proxy.
 */
function cookieOptions(event: H3Event) {
  return { cookie: { secure: getRequestProtocol(event, { xForwardedProto: fromTrustedProxy(event) }) === 'https' } }
}

/**
 * The browser's session when the request carries a valid one issued by the app's page, else undefined. Never
 * mints a session (h3 would, and set a cookie on the refusal): a request without the cookie is answered at once.
 */
export async function readBrowserSession(event: H3Event): Promise<BrowserSession | undefined> {
  if (!hasSessionCookie(event)) return undefined
  const session = await getUserSession(event) as BrowserSession
  return typeof session.issuedAt === 'number' ? session : undefined
}

/** Issues a session to a browser loading the app's page, unless it already has one. */
export async function ensureBrowserSession(event: H3Event): Promise<void> {
  if (await readBrowserSession(event)) return
  await replaceUserSession(event, { issuedAt: Date.now() }, cookieOptions(event))
}

/** Whether the session is signed in with the current access password. */
export function isSignedIn(session: BrowserSession | undefined, password: string): boolean {
  return !!session?.accessKey && session.accessKey === accessPasswordFingerprint(password)
}

/** Marks the browser's session as signed in with `password`. */
export async function signInBrowserSession(event: H3Event, password: string): Promise<void> {
  await replaceUserSession(event, { issuedAt: Date.now(), accessKey: accessPasswordFingerprint(password) }, cookieOptions(event))
}

/** Signs the browser in to an account: a fresh session (new id), so nothing of the one before carries over. */
export async function signInAccountSession(event: H3Event, accountId: string): Promise<void> {
  await replaceUserSession(event, { issuedAt: Date.now(), accountId }, cookieOptions(event))
}

/** Signs the browser out of its account, keeping a plain session so the app's page keeps working. */
export async function signOutAccountSession(event: H3Event): Promise<void> {
  await replaceUserSession(event, { issuedAt: Date.now() }, cookieOptions(event))
}
