import { scanBalanced, type BalancedScan } from './safe-json'
import { skipWhitespace } from './build-call'
import { createBracketReadings } from './bracket-readings'

/**
 * The scans a format parser runs over the stream's buffer, with their progress kept between deltas. While a block
 * waits for more text, the buffer only grows at its end, so a scan resumes where the last delta left it instead of
 * reading the whole block again: asking the parser again after each delta costs the delta, not the block.
 * A text that is not the current buffer (a bounded slice of it) is scanned afresh.
 */
export interface BufferScanner {
  /** {@link scanBalanced}, resumed from its last position. */
  scanBalanced: (text: string, start: number) => BalancedScan
  /** {@link skipWhitespace}, resumed from its last position. */
  skipWhitespace: (text: string, index: number) => number
  /** `text.indexOf(needle, from)`, resumed from where the last search stopped. */
  indexOf: (text: string, needle: string, from: number) => number
}

/** A scanner the stream owns: `track` after every change of the buffer, with how many characters left its front. */
export interface TrackedBufferScanner extends BufferScanner {
  track: (buffer: string, cut: number) => void
}

/** The plain scans, for parsers called without a stream (and for texts that are not the buffer). */
export const PLAIN_SCANNER: BufferScanner = {
  scanBalanced,
  skipWhitespace,
  indexOf: (text, needle, from) => text.indexOf(needle, from),
}

/** Creates the scanner of one stream; positions are kept per start and cleared when the buffer's front moves. */
export function createBufferScanner(): TrackedBufferScanner {
  let buffer = ''
  const brackets = createBracketReadings()
  const whitespace = new Map<number, number>()
  const searches = new Map<string, { found: number, searchedTo: number }>()

  return {
    track(next, cut) {
      buffer = next
      brackets.track(next, cut)
      if (cut > 0) {
        whitespace.clear()
        searches.clear()
      }
    },
    scanBalanced(text, start) {
      return text === buffer && (text[start] === '{' || text[start] === '[') ? brackets.scan(start) : scanBalanced(text, start)
    },
    skipWhitespace(text, index) {
      if (text !== buffer) return skipWhitespace(text, index)
      const reached = skipWhitespace(text, whitespace.get(index) ?? index)
      whitespace.set(index, reached)
      return reached
    },
    indexOf(text, needle, from) {
      if (text !== buffer) return text.indexOf(needle, from)
      const key = `${from}\u0000${needle}`
      const search = searches.get(key)
      if (search && search.found !== -1) return search.found
      const resumeAt = search ? Math.max(from, search.searchedTo - needle.length + 1) : from
      const found = text.indexOf(needle, resumeAt)
      searches.set(key, { found, searchedTo: text.length })
      return found
    },
  }
}
