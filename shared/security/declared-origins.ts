/**
 * The origins a tool plugin declares with `connects` (the hosts its browser handler fetches from). The page's
 * Content-Security-Policy lists them in `connect-src`, so they must be plain origins that cannot widen the policy:
 * https only, no path, no wildcard, a bounded number per tool.
 */

/** Most origins one tool may declare: a tool that talks to more hosts than this is a proxy, not a tool. */
export const MAX_DECLARED_ORIGINS = 8

const HTTPS_ORIGIN = /^https:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d{1,5})?$/

/** Why `value` is not a declarable origin, or undefined when it is one (`https://host[:port]`, lower case). */
export function declaredOriginProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string (got ${value === null ? 'null' : typeof value})`
  if (value.includes('*')) return `must name one host, not a wildcard (got ${JSON.stringify(value)})`
  let url: URL
  try {
    url = new URL(value)
  }
  catch {
    return `must be an origin like "https://api.example.com" (got ${JSON.stringify(value)})`
  }
  if (url.protocol !== 'https:') return `must be an https origin (got ${JSON.stringify(value)})`
  if (url.origin !== value || !HTTPS_ORIGIN.test(value)) {
    return `must be an origin alone, "${url.origin}", without path, query or trailing slash (got ${JSON.stringify(value)})`
  }
  return undefined
}

/**
 * The operator's replacements for declared origins (`NUXT_PUBLIC_CONNECT_ORIGIN_OVERRIDES`), e.g. a local host
 * that answers like the real service in tests: `https://api.example.com=http://127.0.0.1:8080`, comma-separated.
 * Entries that are not `origin=origin` are ignored, so nothing but an origin ever reaches the policy.
 */
export function parseConnectOriginOverrides(text: string | undefined): Map<string, string> {
  const overrides = new Map<string, string>()
  for (const entry of (text ?? '').split(',')) {
    const [declared, replacement] = entry.split('=').map(part => part.trim().toLowerCase())
    if (!declared || !replacement || !PLAIN_ORIGIN.test(declared) || !PLAIN_ORIGIN.test(replacement)) continue
    overrides.set(declared, replacement)
  }
  return overrides
}

const PLAIN_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

/** The origins the page connects to for `declared`, each replaced by its override when the operator set one. */
export function withOriginOverrides(declared: Iterable<string>, overrides: ReadonlyMap<string, string>): string[] {
  return [...new Set([...declared].map(origin => overrides.get(origin) ?? origin))]
}

/** `url` with its origin replaced by the override of that origin, or `url` unchanged. */
export function overriddenUrl(url: string, overrides: ReadonlyMap<string, string>): string {
  if (overrides.size === 0) return url
  let parsed: URL
  try {
    parsed = new URL(url)
  }
  catch {
    return url
  }
  const replacement = overrides.get(parsed.origin)
  return replacement ? `${replacement}${parsed.pathname}${parsed.search}${parsed.hash}` : url
}
