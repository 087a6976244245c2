import { ICONIFY_NAME } from './icon-shards'

/** Bounds of one icon request (`GET /api/_nuxt_icon/<prefix>.json?icons=a,b`). */
export const ICON_REQUEST_LIMITS = {
  /** Names a request may ask for. Iconify's client keeps its URLs under 500 characters, far fewer names. */
  maxNames: 128,
  /** Characters of one name; the longest name in `@iconify/json` has 99. */
  maxNameLength: 128,
  /** Characters of a collection prefix; the longest has 22. */
  maxPrefixLength: 64,
} as const

export type IconRequest =
  | { ok: true, prefix: string, names: string[] }
  | { ok: false, status: 400 | 404, message: string }

/**
 * Reads the route's `collection` parameter (`tabler.json`) and `icons` query into a prefix and distinct names,
 * or the refusal: 400 for a malformed or oversized request, 404 for a prefix that is not an Iconify name (the
 * store answers whether it is a known collection). Nothing unchecked reaches a file path.
 */
export function parseIconRequest(collection: unknown, icons: unknown): IconRequest {
  const prefix = typeof collection === 'string' ? collection.replace(/\.json$/, '') : ''
  if (!prefix || prefix.length > ICON_REQUEST_LIMITS.maxPrefixLength || !ICONIFY_NAME.test(prefix)) {
    return { ok: false, status: 404, message: 'Unknown icon collection.' }
  }
  if (typeof icons !== 'string' || icons === '') {
    return { ok: false, status: 400, message: 'Name the icons: ?icons=name1,name2.' }
  }
  const parts = icons.split(',', ICON_REQUEST_LIMITS.maxNames + 1)
  if (parts.length > ICON_REQUEST_LIMITS.maxNames) {
    return { ok: false, status: 400, message: `At most ${ICON_REQUEST_LIMITS.maxNames} icons a request.` }
  }
  const names = [...new Set(parts)]
  for (const name of names) {
    if (name.length > ICON_REQUEST_LIMITS.maxNameLength) {
      return { ok: false, status: 400, message: `An icon name has at most ${ICON_REQUEST_LIMITS.maxNameLength} characters.` }
    }
    if (!ICONIFY_NAME.test(name)) {
      return { ok: false, status: 400, message: 'Icon names are lowercase letters, digits and single hyphens.' }
    }
  }
  return { ok: true, prefix, names }
}
