/**
 * "Sign in with OpenRouter": OAuth PKCE (https://openrouter.ai/docs/oauth). No client secret is involved;
 * the one-time verifier stays in this tab's sessionStorage and the resulting key only in the browser.
 */

export const OPENROUTER_AUTH_URL = 'https://openrouter.ai/auth'
export const OPENROUTER_KEYS_URL = 'https://openrouter.ai/api/v1/auth/keys'
/** sessionStorage (not localStorage): the verifier must not outlive the tab or be visible to other tabs. */
export const PKCE_VERIFIER_STORAGE_KEY = 'plugboard:openrouter-pkce-verifier'

export type OpenRouterSignInFailure = 'missing-code' | 'missing-verifier' | 'denied' | 'exchange-failed' | 'network'

/** Why signing in with OpenRouter failed; `reason` lets the UI pick what to suggest. */
export class OpenRouterSignInError extends Error {
  override readonly name = 'OpenRouterSignInError'
  readonly reason: OpenRouterSignInFailure
  /** HTTP status of the key exchange, when it answered. */
  readonly status?: number

  constructor(reason: OpenRouterSignInFailure, message: string, options: { status?: number, cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.reason = reason
    this.status = options.status
  }
}

/** Unpadded base64url (RFC 4648 §5), as PKCE requires. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** A fresh verifier: 32 random bytes, base64url (43 characters, within RFC 7636's 43–128). */
export function createCodeVerifier(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
}

/** The S256 challenge: base64url(SHA-256(ASCII(verifier))). */
export async function createCodeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  return base64UrlEncode(new Uint8Array(digest))
}

/** The URL that asks the user to authorise this app on OpenRouter. */
export function buildOpenRouterAuthUrl(callbackUrl: string, codeChallenge: string): string {
  const url = new URL(OPENROUTER_AUTH_URL)
  url.searchParams.set('callback_url', callbackUrl)
  url.searchParams.set('code_challenge', codeChallenge)
  url.searchParams.set('code_challenge_method', 'S256')
  return url.toString()
}

export interface StartSignInOptions {
  /** @default globalThis.sessionStorage */
  storage?: Pick<Storage, 'setItem'>
  /** Called with the auth URL. @default (url) => window.location.assign(url) */
  redirect?: (url: string) => void
}

/**
 * Stores a new verifier and sends the browser to OpenRouter, which comes back to `callbackUrl?code=…`.
 * @returns the auth URL (after `redirect` was called with it)
 */
export async function startOpenRouterSignIn(callbackUrl: string, options: StartSignInOptions = {}): Promise<string> {
  const storage = options.storage ?? globalThis.sessionStorage
  const redirect = options.redirect ?? ((url: string) => window.location.assign(url))
  const verifier = createCodeVerifier()
  storage.setItem(PKCE_VERIFIER_STORAGE_KEY, verifier)
  const url = buildOpenRouterAuthUrl(callbackUrl, await createCodeChallenge(verifier))
  redirect(url)
  return url
}

export interface CompleteSignInOptions {
  /** @default globalThis.sessionStorage */
  storage?: Pick<Storage, 'getItem' | 'removeItem'>
  /** @default globalThis.fetch */
  fetch?: typeof globalThis.fetch
}

/**
 * Exchanges the `code` OpenRouter returned for an API key. The verifier is removed whatever happens:
 * codes are single-use, so a retry needs a new sign-in anyway.
 * @throws OpenRouterSignInError
 */
export async function completeOpenRouterSignIn(code: string | null | undefined, options: CompleteSignInOptions = {}): Promise<string> {
  const storage = options.storage ?? globalThis.sessionStorage
  const fetchFn = options.fetch ?? globalThis.fetch
  if (!code) throw new OpenRouterSignInError('missing-code', 'OpenRouter did not return an authorisation code. The sign-in was cancelled or the link is incomplete.')
  const verifier = storage.getItem(PKCE_VERIFIER_STORAGE_KEY)
  storage.removeItem(PKCE_VERIFIER_STORAGE_KEY)
  if (!verifier) {
    throw new OpenRouterSignInError('missing-verifier', 'This sign-in was started in another tab or has already been used. Start "Sign in with OpenRouter" again from this tab.')
  }

  let response: Response
  try {
    response = await fetchFn(OPENROUTER_KEYS_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code, code_verifier: verifier, code_challenge_method: 'S256' }),
    })
  }
  catch (error) {
    throw new OpenRouterSignInError('network', 'Could not reach OpenRouter to finish signing in. Check the connection and try again.', { cause: error })
  }

  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    const detail = readErrorMessage(body)
    const reason: OpenRouterSignInFailure = response.status === 401 || response.status === 403 ? 'denied' : 'exchange-failed'
    throw new OpenRouterSignInError(reason, `OpenRouter refused the sign-in (HTTP ${response.status})${detail ? `: ${detail}` : ''}. Sign in again.`, { status: response.status })
  }
  const key = typeof body === 'object' && body !== null ? (body as { key?: unknown }).key : undefined
  if (typeof key !== 'string' || !key) {
    throw new OpenRouterSignInError('exchange-failed', 'OpenRouter answered without a key. Sign in again.', { status: response.status })
  }
  return key
}

function readErrorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const error = (body as { error?: unknown }).error
  if (typeof error === 'string') return error
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message
  }
  return undefined
}
