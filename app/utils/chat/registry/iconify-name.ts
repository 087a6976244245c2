/**
 * An icon name as @nuxt/icon reads it (`i-tabler:cloud`, `i-tabler-cloud`, `tabler:cloud`) → Iconify's
 * `prefix:name`, or undefined when it is no Iconify name. A name without a colon is split after the longest known
 * collection that starts it (`i-simple-icons-github` → `simple-icons:github`).
 */
export function resolveIconifyName(icon: string, collections: readonly string[]): string | undefined {
  const bare = icon.startsWith('i-') ? icon.slice(2) : icon
  const colon = bare.indexOf(':')
  if (colon >= 0) return ICON_ID.test(bare) ? bare : undefined
  const prefix = [...collections].sort((a, b) => b.length - a.length).find(collection => bare.startsWith(`${collection}-`))
  const resolved = prefix ? `${prefix}:${bare.slice(prefix.length + 1)}` : undefined
  return resolved && ICON_ID.test(resolved) ? resolved : undefined
}

/** Iconify's `prefix:name`, both lowercase letters, digits and single hyphens. */
const ICON_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*:[a-z0-9]+(?:-[a-z0-9]+)*$/
