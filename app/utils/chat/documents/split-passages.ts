import { PASSAGE_MAX_CHARS, PASSAGE_OVERLAP_CHARS, PASSAGE_TARGET_CHARS } from './document-limits'

/** Text of one page of a document (`page` absent for formats without pages). */
export interface DocumentPage {
  page?: number
  text: string
}

/** A passage: what the index holds and the model reads. */
export interface DocumentPassage {
  page?: number
  text: string
}

export interface SplitOptions {
  /** @default PASSAGE_TARGET_CHARS */
  targetChars?: number
  /** @default PASSAGE_MAX_CHARS */
  maxChars?: number
  /** @default PASSAGE_OVERLAP_CHARS */
  overlapChars?: number
}

// Each pattern is linear: a run is matched once, from its start.
const LINE_BREAKS = /\r\n?|[\u2028\u2029]/g
const SPACES = /[^\S\n]+/g
const PARAGRAPH_BREAK = /\n(?:[^\S\n]*\n)+/
const SENTENCE_END = /(?<=[.!?…。！？])\s+/

/**
 * Splits a document into passages of about `targetChars`, on paragraph and then sentence boundaries, each
 * starting with the end of the one before it (`overlapChars`, from a word start). A passage never spans two pages,
 * so its page number is exact. Linear in the text's length, whatever it holds (one huge line, no spaces at all).
 */
export function splitIntoPassages(pages: readonly DocumentPage[], options: SplitOptions = {}): DocumentPassage[] {
  const { targetChars = PASSAGE_TARGET_CHARS, maxChars = PASSAGE_MAX_CHARS, overlapChars = PASSAGE_OVERLAP_CHARS } = options
  const passages: DocumentPassage[] = []
  for (const { page, text } of pages) {
    let current = ''
    let fresh = false // `current` holds more than the overlap carried from the passage before
    const flush = () => {
      if (fresh) passages.push(page === undefined ? { text: current } : { page, text: current })
      current = fresh ? overlapTail(current, overlapChars) : current
      fresh = false
    }
    for (const unit of textUnits(text, targetChars)) {
      if (fresh && current.length + 1 + unit.length > targetChars) flush()
      const joined = current ? `${current} ${unit}` : unit
      current = joined.length > maxChars ? unit : joined
      fresh = true
    }
    flush()
  }
  return passages
}

/** The paragraphs of a page, each cut into sentences and then words when longer than `limit`. */
function* textUnits(text: string, limit: number): Generator<string> {
  const normal = text.replace(LINE_BREAKS, '\n').replace(SPACES, ' ')
  for (const paragraph of normal.split(PARAGRAPH_BREAK)) {
    const flat = paragraph.replace(/\n/g, ' ').trim()
    if (!flat) continue
    if (flat.length <= limit) {
      yield flat
      continue
    }
    for (const sentence of flat.split(SENTENCE_END)) {
      if (sentence.length <= limit) yield sentence
      else yield* cutAtWords(sentence, limit)
    }
  }
}

/** Pieces of at most `limit` characters, cut at the last space before the limit, or at the limit when none is near. */
function* cutAtWords(text: string, limit: number): Generator<string> {
  let start = 0
  while (text.length - start > limit) {
    // searched in the window only: from the limit back to its middle, so each character is looked at a few times
    const half = start + Math.floor(limit / 2)
    const space = text.slice(half, start + limit + 1).lastIndexOf(' ')
    const end = space >= 0 ? half + space : start + limit
    yield text.slice(start, end).trim()
    start = end
  }
  const rest = text.slice(start).trim()
  if (rest) yield rest
}

/** The last `chars` characters of a passage, from the start of a word. */
function overlapTail(text: string, chars: number): string {
  if (chars <= 0) return ''
  if (text.length <= chars) return text
  const tail = text.slice(-chars)
  const space = tail.indexOf(' ')
  return space >= 0 && space < tail.length - 1 ? tail.slice(space + 1) : tail
}
