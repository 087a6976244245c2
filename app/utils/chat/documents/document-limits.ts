// How much of a document is kept and searched. A passage is about what a model needs to quote an answer with its
// context; the caps keep one chat's index small enough to build in the tab in a few seconds at worst (once: it is cached).

/** The largest file read for its text. */
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024
/** PDF pages read; a longer PDF is refused rather than cut, so an answer never silently misses its end. */
export const MAX_DOCUMENT_PAGES = 500
/** Characters of text kept from one document (about 500 pages of prose). */
export const MAX_DOCUMENT_TEXT_CHARS = 2_000_000
/** Passages of one document. */
export const MAX_PASSAGES_PER_DOCUMENT = 3_000
/** Passages of all the documents of one chat. */
export const MAX_PASSAGES_PER_CHAT = 10_000
/** The length a passage aims for, in characters. */
export const PASSAGE_TARGET_CHARS = 1_000
/** The hard cap of a passage (a sentence longer than the target is cut at a word). */
export const PASSAGE_MAX_CHARS = 1_400
/** Characters of the previous passage repeated at the start of the next, so a sentence cut in two is found whole. */
export const PASSAGE_OVERLAP_CHARS = 150
/** Passages `search_documents` returns by default, and at most. */
export const DEFAULT_SEARCH_RESULTS = 5
export const MAX_SEARCH_RESULTS = 10
