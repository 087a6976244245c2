import { renderMarkdown } from './markdown'
import { createTextKeyedLru } from './text-keyed-lru'

/** Markdown source → HTML, for at most 4,000,000 characters of source (about a long book). */
const cache = createTextKeyedLru<string>(4_000_000)

/**
 * `renderMarkdown` for blocks that will not change: the virtual message list unmounts messages scrolled away and
 * mounts them again when they come back, and their HTML is taken from here instead of parsed and sanitised again.
 * Least recently used blocks are forgotten first.
 */
export function renderMarkdownCached(source: string, known?: { source: string, html: string }): string {
  const hit = cache.get(source)
  if (hit !== undefined) return hit
  // The streaming tail's last rendering of the same text (the block just finished): reuse it, do not parse again.
  const html = known?.source === source ? known.html : renderMarkdown(source)
  cache.set(source, html)
  return html
}

/** Whether `source`'s HTML is in the cache (rendering it again costs nothing). */
export function isMarkdownCached(source: string): boolean {
  return cache.has(source)
}
