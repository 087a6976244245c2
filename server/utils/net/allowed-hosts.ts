/**
 * The operator's allow-list (`NUXT_FETCH_ALLOWED_HOSTS`): hosts the server may fetch even though they resolve to
 * a non-public address, e.g. an intranet wiki, or the loopback server of a test. Comma-separated `host` or
 * `host:port` entries (`127.0.0.1:4321`, `wiki.internal`, `[::1]:8080`); case does not matter.
 */
export function parseAllowedHosts(configured: unknown): string[] {
  if (typeof configured !== 'string') return []
  return configured.split(',').map(entry => entry.trim().toLowerCase()).filter(Boolean)
}

/** True when the URL's host (with its port) or its host name alone is on the allow-list. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.length === 0) return false
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  const hostname = url.hostname.toLowerCase()
  return allowedHosts.includes(hostname) || allowedHosts.includes(`${hostname}:${port}`)
}
