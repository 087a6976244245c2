/**
 * The model endpoints a page may connect to. The server's Content-Security-Policy allows `connect-src` to the
 * app, OpenRouter and the origins the app lists in this cookie (the endpoints the user configured, e.g. a local
 * Ollama), so a script injected into the page could not send data anywhere else.
 */

/** Cookie in which the app lists the model endpoints the user configured. */
export const CONNECT_ORIGINS_COOKIE = 'plugboard-connect'

/** OpenRouter: the user's own key and the OAuth key exchange talk to it from the browser. */
export const OPENROUTER_ORIGIN = 'https://openrouter.ai'

/** Most endpoint origins the cookie may list; more is not a setup anyone has, and the header stays small. */
export const MAX_CONNECT_ORIGINS = 8

const ORIGIN_PATTERN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

/** `http(s)://host[:port]` of `url` in lower case, or undefined for anything else. */
export function connectOriginOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin.toLowerCase()
    return ORIGIN_PATTERN.test(origin) ? origin : undefined
  }
  catch {
    return undefined
  }
}

/**
 * The origins listed in the cookie's value (comma-separated, URL-encoded). Only plain `http(s)://host[:port]`
 * origins are kept: nothing that could smuggle another directive (`;`, spaces, quotes, wildcards) into the policy.
 */
export function parseConnectOrigins(cookie: string | undefined): string[] {
  if (!cookie) return []
  let decoded: string
  try {
    decoded = decodeURIComponent(cookie)
  }
  catch {
    return []
  }
  const origins = new Set<string>()
  for (const item of decoded.split(',')) {
    const origin = item.trim().toLowerCase()
    if (ORIGIN_PATTERN.test(origin)) origins.add(origin)
    if (origins.size >= MAX_CONNECT_ORIGINS) break
  }
  return [...origins]
}

/** The cookie value listing `origin` first, then the others, at most MAX_CONNECT_ORIGINS. */
export function withConnectOrigin(origins: string[], origin: string): string {
  return encodeURIComponent([origin, ...origins.filter(item => item !== origin)].slice(0, MAX_CONNECT_ORIGINS).join(','))
}
