/**
 * Where the next occurrence of each opener is in a buffer that grows at its end and is cut at its front. Each
 * opener's search goes on from where it stopped, so finding the next candidate costs each character once per
 * opener over the whole stream, not once per delta.
 */
export interface OpenerIndex {
  /** The buffer after it changed; `cut` characters were removed from its front. */
  track: (buffer: string, cut: number) => void
  /** Index of `opener`'s first occurrence in the buffer, or -1. */
  find: (opener: string) => number
}

export function createOpenerIndex(): OpenerIndex {
  let buffer = ''
  /** Characters cut from the front so far: positions below are absolute, so they survive a cut. */
  let offset = 0
  const searches = new Map<string, { found: number, searchedTo: number }>()

  return {
    track(next, cut) {
      buffer = next
      offset += cut
    },
    find(opener) {
      const search = searches.get(opener)
      if (search && search.found >= offset) return search.found - offset
      let from = offset
      if (search && search.found === -1) from = Math.max(offset, search.searchedTo - opener.length + 1)
      else if (search) from = Math.max(offset, search.found + 1)
      const index = buffer.indexOf(opener, from - offset)
      searches.set(opener, { found: index === -1 ? -1 : index + offset, searchedTo: offset + buffer.length })
      return index
    },
  }
}
