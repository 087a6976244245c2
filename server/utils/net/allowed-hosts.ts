/**
 * The operator's allow-lists (`NUXT_FETCH_ALLOWED_HOSTS`, `NUXT_MCP_ALLOWED_HOSTS`): hosts the server may reach
 * even though they resolve to a non-public address, e.g. an intranet wiki, or the loopback server of a test.
 * Comma-separated `host` or `host:port` entries (`127.0.0.1:4321`, `wiki.internal`, `[::1]:8080`); case does not
 * matter. An entry without a port allows its scheme's default port only (80 for http, 443 for https): allowing
 * `wiki.internal` must not open the database or admin ports that the same machine listens on.
 */
export function parseAllowedHosts(configured: unknown): string[] {
  if (typeof configured !== 'string') return []
  return configured.split(',').map(entry => entry.trim().toLowerCase()).filter(Boolean)
}

/** True when the URL's `host:port`, or its bare host name on the scheme's default port, is on the allow-list. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.length === 0) return false
  const hostname = url.hostname.toLowerCase()
  // URL leaves `port` empty exactly when it is the scheme's default one
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return allowedHosts.includes(`${hostname}:${port}`) || (url.port === '' && allowedHosts.includes(hostname))
}
