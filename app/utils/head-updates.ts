/** The part of unhead's client head this needs: its hooks and `invalidate()`. */
export interface RenderedHead {
  hooks: { hook: (name: 'entries:updated' | 'entries:resolve' | 'dom:rendered', fn: () => void) => unknown }
  invalidate: () => void
}

/**
 * Writes the head again when it changed while a write was under way. unhead 2.1 (Nuxt 3's last) reads the head's
 * entries at the start of a write and marks the head written at its end, so an entry pushed in between is never
 * written: the 404 page's title ("Page not found · Plugboard") is pushed while the write that Nuxt starts on the
 * error is resolving, and the tab kept "Plugboard". unhead 3 writes again after such a change; this does the same,
 * once per write that missed one.
 */
export function keepHeadUpdates(head: RenderedHead): void {
  let updates = 0
  let updatesRead = 0
  head.hooks.hook('entries:updated', () => {
    updates++
  })
  // called right after a write (or any resolve) has read the entries
  head.hooks.hook('entries:resolve', () => {
    updatesRead = updates
  })
  head.hooks.hook('dom:rendered', () => {
    // after the write's end (which marks the head written), not inside it
    if (updates > updatesRead) setTimeout(() => head.invalidate(), 0)
  })
}
