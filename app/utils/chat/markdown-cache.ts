import { renderMarkdown } from './markdown'

/** Characters of markdown source whose HTML is kept (about a long book). */
const MAX_CACHED_CHARS = 4_000_000

const cache = new Map<string, string>()
let cachedChars = 0

/**
 * `renderMarkdown` for blocks that will not change: the virtual message list unmounts messages scrolled away and
 * mounts them again when they come back, and their HTML is taken from here instead of parsed and sanitised again.
 * Least recently used blocks are forgotten past MAX_CACHED_CHARS.
 */
export function renderMarkdownCached(source: string, known?: { source: string, html: string }): string {
  const hit = cache.get(source)
  if (hit !== undefined) {
    cache.delete(source)
    cache.set(source, hit)
    return hit
  }
  // The streaming tail's last rendering of the same text (the block just finished): reuse it, do not parse again.
  const html = known?.source === source ? known.html : renderMarkdown(source)
  if (source.length > MAX_CACHED_CHARS / 10) return html
  cache.set(source, html)
  cachedChars += source.length
  for (const key of cache.keys()) {
    if (cachedChars <= MAX_CACHED_CHARS) break
    cache.delete(key)
    cachedChars -= key.length
  }
  return html
}

/** Whether `source`'s HTML is in the cache (rendering it again costs nothing). */
export function isMarkdownCached(source: string): boolean {
  return cache.has(source)
}
