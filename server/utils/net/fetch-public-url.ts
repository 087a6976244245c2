import { BlockedUrlError } from './errors/blocked-url-error'
import { WebFetchError } from './errors/web-fetch-error'
import { pinnedGet } from './pinned-request'
import type { RequestFunction } from './pinned-request'
import { decodeBody, readCappedBody } from './read-capped-body'
import { resolvePublicAddress } from './resolve-public-address'
import type { HostResolver } from './resolve-public-address'

/** What a fetch of a public URL returns. */
export interface FetchedPage {
  /** Where the page came from after redirects. */
  url: string
  /** The media type without parameters, e.g. `text/html`. */
  mediaType: string
  text: string
  /** True when the body was longer than `maxBytes` and only its start was read. */
  truncated: boolean
}

export interface FetchPublicUrlOptions {
  /** Aborts the fetch (the tool's timeout, Stop). */
  signal?: AbortSignal
  /** The whole fetch, redirects included, must finish within this. @default 10_000 */
  timeoutMs?: number
  /** Most bytes read from the body (after decompression). @default 2 MiB */
  maxBytes?: number
  /** @default 3 */
  maxRedirects?: number
  /** Hosts that may be non-public (`NUXT_FETCH_ALLOWED_HOSTS`). @default [] */
  allowedHosts?: readonly string[]
  /** @default the system resolver */
  resolve?: HostResolver
  /** @default Node's http/https */
  send?: RequestFunction
}

/** Media types whose text is worth reading. Anything else (images, PDFs, archives) is refused. */
const READABLE_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain|application\/json|application\/[\w.+-]+\+json)$/
const REDIRECTS = new Set([301, 302, 303, 307, 308])
const HEADERS = {
  'user-agent': 'Plugboard/0.1 (fetch_web_page tool)',
  'accept': 'text/html, application/xhtml+xml, text/plain;q=0.9, application/json;q=0.9',
  'accept-encoding': 'gzip, deflate, br',
}

/**
 * GETs a public http(s) URL and returns its text, safe against server-side request forgery: each hop (the URL
 * and every redirect) is resolved, every address checked as public and the connection pinned to the checked one.
 * Follows at most `maxRedirects` redirects, reads at most `maxBytes`, gives up after `timeoutMs`, and reads only
 * HTML, plain text and JSON.
 * @throws BlockedUrlError for a URL that leads inside; WebFetchError for anything else that went wrong
 */
export async function fetchPublicUrl(input: string, options: FetchPublicUrlOptions = {}): Promise<FetchedPage> {
  const { timeoutMs = 10_000, maxBytes = 2 * 1024 * 1024, maxRedirects = 3 } = options
  const controller = new AbortController()
  const timeout = new WebFetchError({ url: input, reason: `no complete answer within ${timeoutMs / 1000} s` })
  const timer = setTimeout(() => controller.abort(timeout), timeoutMs)
  const onOuterAbort = () => controller.abort(options.signal?.reason)
  if (options.signal?.aborted) onOuterAbort()
  options.signal?.addEventListener('abort', onOuterAbort, { once: true })
  try {
    let url = checkedUrl(input)
    for (let redirects = 0; ; redirects++) {
      const pinned = await resolvePublicAddress(url, { resolve: options.resolve, allowedHosts: options.allowedHosts, signal: controller.signal })
      const response = await pinnedGet(url, pinned, { headers: HEADERS, signal: controller.signal, send: options.send })
      const status = response.statusCode ?? 0
      if (REDIRECTS.has(status) && response.headers.location) {
        response.destroy()
        if (redirects >= maxRedirects) throw new WebFetchError({ url: url.href, reason: `more than ${maxRedirects} redirects` })
        url = checkedUrl(new URL(response.headers.location, url).href)
        continue
      }
      if (status < 200 || status > 299) {
        response.destroy()
        throw new WebFetchError({ url: url.href, status, reason: `the page answered HTTP ${status} ${response.statusMessage ?? ''}`.trim() })
      }
      const contentType = String(response.headers['content-type'] ?? '')
      const mediaType = contentType.split(';')[0]!.trim().toLowerCase()
      if (!READABLE_TYPES.test(mediaType)) {
        response.destroy()
        throw new WebFetchError({ url: url.href, reason: `the page is ${mediaType || 'of no declared type'}; only HTML, plain text and JSON can be read` })
      }
      const body = await readCappedBody(response, maxBytes)
      return { url: url.href, mediaType, text: decodeBody(body.bytes, contentType), truncated: body.truncated }
    }
  }
  catch (error) {
    // the socket's AbortError says nothing: report why it was aborted
    if (controller.signal.aborted) throw controller.signal.reason
    if (BlockedUrlError.isInstance(error) || WebFetchError.isInstance(error)) throw error
    throw new WebFetchError({ url: input, reason: (error as Error)?.message ?? String(error), cause: error })
  }
  finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onOuterAbort)
  }
}

/** Parses a URL and refuses anything but plain http(s) without credentials. */
function checkedUrl(input: string): URL {
  let url: URL
  try {
    url = new URL(input)
  }
  catch {
    throw new BlockedUrlError({ url: input, reason: 'it is not a valid absolute URL' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError({ url: input, reason: `the ${url.protocol} scheme is not allowed` })
  if (url.username || url.password) throw new BlockedUrlError({ url: input, reason: 'URLs with a user name or password are not fetched' })
  return url
}
