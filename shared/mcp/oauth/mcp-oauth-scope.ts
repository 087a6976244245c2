/**
 * A step-up (the server wants a scope the token lacks) asks for the scopes already granted as well as the one
 * challenged: the new token replaces the old one, and must not lose what the old one could do (SEP-2350), or the
 * next request that needs an earlier scope asks for a sign-in again.
 */
const MAX_SCOPES = 64

export function withGrantedScopes(authorizationUrl: URL, granted: string | undefined): URL {
  const requested = authorizationUrl.searchParams.get('scope')
  if (!granted || requested === null) return authorizationUrl
  const union = [...new Set([...requested.split(' '), ...granted.split(' ')].filter(Boolean))].slice(0, MAX_SCOPES)
  const next = new URL(authorizationUrl)
  next.searchParams.set('scope', union.join(' '))
  return next
}
