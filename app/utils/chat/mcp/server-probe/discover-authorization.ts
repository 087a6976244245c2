import { isRecord } from '#shared/types/is-record'
import { parseJson } from '#shared/security/parse-json'
import type { McpProbeAuthorization } from './probe-types'
import { readBoundedText } from './read-probe-answer'

/** A parameter of a `WWW-Authenticate: Bearer k="v", …` header, or undefined. */
export function authenticateParameter(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  // linear: a parameter name, `=`, then a quoted string without quotes inside or a token
  const pattern = new RegExp(`(?:^|[\\s,])${name}=(?:"([^"]*)"|([^\\s,]+))`, 'i')
  const match = pattern.exec(header)
  return match ? (match[1] ?? match[2]) : undefined
}

/** RFC 9728's well-known locations for `url`: the path-specific one first, then the root. */
export function protectedResourceMetadataUrls(url: string): string[] {
  const { origin, pathname } = new URL(url)
  const path = pathname === '/' ? '' : pathname.replace(/\/$/, '')
  return [...new Set([`${origin}/.well-known/oauth-protected-resource${path}`, `${origin}/.well-known/oauth-protected-resource`])]
}

/**
 * What a server that answered 401/403 says about signing in: the `resource_metadata` and `scope` of its
 * WWW-Authenticate, and the authorization servers its protected resource metadata lists (read from the header's
 * URL, else the well-known locations). Reports what it found; a server without metadata still "asks to sign in".
 */
export async function discoverAuthorization(
  url: string,
  response: Response,
  options: { fetch: typeof fetch, signal: AbortSignal, maxBytes: number },
): Promise<McpProbeAuthorization> {
  await response.body?.cancel().catch(() => {})
  const header = response.headers.get('www-authenticate')
  const declared = authenticateParameter(header, 'resource_metadata')
  const scope = authenticateParameter(header, 'scope')
  const candidates = declared ? [declared] : protectedResourceMetadataUrls(url)
  for (const candidate of candidates) {
    try {
      const answer = await options.fetch(candidate, { signal: options.signal, headers: { accept: 'application/json' } })
      if (!answer.ok) {
        await answer.body?.cancel().catch(() => {})
        continue
      }
      const { text, cut } = await readBoundedText(answer, options.maxBytes)
      const metadata: unknown = cut ? undefined : parseJson(text)
      if (!isRecord(metadata)) continue
      const servers = Array.isArray(metadata.authorization_servers) ? metadata.authorization_servers.filter((item): item is string => typeof item === 'string' && URL.canParse(item)) : []
      return { resourceMetadataUrl: candidate, authorizationServers: servers.slice(0, 8), ...(scope && { scope }) }
    }
    catch {
      // not there, not JSON, not reachable: the next location, or what the header said
    }
  }
  return { ...(declared && { resourceMetadataUrl: declared }), authorizationServers: [], ...(scope && { scope }) }
}
