/**
 * Pure helpers of the OpenRouter proxy route (server/api/openrouter/[...path].ts): which paths it forwards,
 * where to, with which headers, and what the client gets back. The server's key only ever goes upstream.
 */

/** The only upstream paths the proxy forwards, with the one method each accepts. */
export const OPENROUTER_PROXY_ROUTES = { 'chat/completions': 'POST', 'models': 'GET' } as const

export type OpenRouterProxyPath = keyof typeof OPENROUTER_PROXY_ROUTES

export const OPENROUTER_NO_KEY_MESSAGE = 'No OpenRouter key is configured on the server (NUXT_OPENROUTER_API_KEY).'

/** Upstream response headers passed on to the browser. Not content-length/-encoding: fetch already decoded the body. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'retry-after', 'cache-control', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']

/**
 * The allow-listed path for the route's `path` parameter (`chat/completions`, `/models/`), or undefined for
 * anything else, including tricks like `models/../keys` or `chat%2Fcompletions`.
 */
export function resolveOpenRouterProxyPath(raw: string | undefined | null): OpenRouterProxyPath | undefined {
  if (typeof raw !== 'string') return undefined
  const path = raw.replace(/^\/+|\/+$/g, '')
  return Object.hasOwn(OPENROUTER_PROXY_ROUTES, path) ? path as OpenRouterProxyPath : undefined
}

/** `${baseUrl}/${path}${search}`, tolerating a trailing slash on the base. `search` is kept for `models?...`. */
export function buildOpenRouterUpstreamUrl(baseUrl: string, path: OpenRouterProxyPath, search = ''): string {
  const query = search && !search.startsWith('?') ? `?${search}` : search
  return `${baseUrl.replace(/\/+$/, '')}/${path}${query === '?' ? '' : query}`
}

/** Options of `buildOpenRouterUpstreamHeaders`. */
export interface OpenRouterUpstreamHeaderOptions {
  apiKey: string
  /** Sent as `HTTP-Referer` (OpenRouter's app attribution). */
  appUrl?: string
  /** Sent as `X-Title`. */
  appTitle?: string
  /** The client's Accept header. @default 'application/json' for GET, 'text/event-stream, application/json' for POST */
  accept?: string
  /** Whether a JSON body goes with the request. @default false */
  hasBody?: boolean
}

/**
 * Headers of the upstream request. Nothing from the browser is forwarded except Accept: no cookies, no
 * client Authorization (the server's key replaces it).
 */
export function buildOpenRouterUpstreamHeaders(options: OpenRouterUpstreamHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'authorization': `Bearer ${options.apiKey}`,
    'accept': options.accept || (options.hasBody ? 'text/event-stream, application/json' : 'application/json'),
  }
  if (options.hasBody) headers['content-type'] = 'application/json'
  if (options.appUrl) headers['http-referer'] = options.appUrl
  if (options.appTitle) headers['x-title'] = options.appTitle
  return headers
}

/** The upstream headers the browser sees: status-relevant ones only (content type, retry-after, rate limits). */
export function pickOpenRouterResponseHeaders(upstream: Headers): Record<string, string> {
  const picked: Record<string, string> = {}
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.get(name)
    if (value !== null) picked[name] = value
  }
  if (picked['content-type']?.includes('text/event-stream')) {
    picked['cache-control'] ??= 'no-cache'
    picked['x-accel-buffering'] = 'no'
  }
  return picked
}

/** A URL without user:password, for messages. Returns the input when it is not a URL. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString().replace(/\/$/, '')
  }
  catch {
    return url
  }
}

/** `text` with every occurrence of `secret` replaced, so a key can never leak through an error message. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text
}

/**
 * The message for a fetch that failed before any response ("Could not reach the model provider
 * (ECONNREFUSED)"). The browser's version never names the upstream URL (it may be an internal host); the
 * server log's version (`internal`) does, without credentials.
 */
export function describeOpenRouterNetworkError(error: unknown, baseUrl: string, apiKey?: string, options: { internal?: boolean } = {}): string {
  const cause = (error as { cause?: { code?: unknown, message?: unknown } } | undefined)?.cause
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error)
  const where = options.internal ? `the OpenRouter API at ${withoutCredentials(baseUrl)}` : 'the model provider'
  return redactSecret(redactSecret(`Could not reach ${where} (${detail}). Try again in a moment; if it persists, the server's operator should check NUXT_OPENROUTER_BASE_URL and the server's network.`, apiKey), options.internal ? undefined : baseUrl)
}

/** Most bytes of an upstream error body passed on to the browser. */
export const MAX_UPSTREAM_ERROR_BYTES = 64 * 1024

/**
 * An upstream error body as text for the browser: at most MAX_UPSTREAM_ERROR_BYTES, with every secret
 * (the key, the internal base URL) replaced, so an upstream that echoes its request leaks nothing.
 */
export async function readUpstreamErrorBody(upstream: Response, secrets: (string | undefined)[]): Promise<string> {
  const reader = upstream.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  while (size < MAX_UPSTREAM_ERROR_BYTES) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
  }
  reader.cancel().catch(() => {})
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_UPSTREAM_ERROR_BYTES))
  return secrets.reduce<string>((redacted, secret) => redactSecret(redacted, secret?.trim() || undefined), text)
}
