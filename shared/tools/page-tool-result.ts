/** Reading a stored tool result in pages, for `read_tool_result`. Pure: the caller finds the stored text. */

/** Longest page handed out, so one page always fits under the executor's result cap (32 768 by default). */
export const MAX_PAGE_CHARS = 16_000

/** Page length when the model asks for none. */
export const DEFAULT_PAGE_CHARS = 8_000

export interface ToolResultPage {
  /** The characters `[offset, offset + text.length)` of the stored result. */
  text: string
  offset: number
  /** Length of the whole stored result. */
  total: number
  /** Where the next page starts; `null` when this page reaches the end. */
  nextOffset: number | null
}

/**
 * Cuts one page out of `full`. The length is clamped to 1…MAX_PAGE_CHARS; a page never ends between the halves of
 * a surrogate pair (it stops one earlier), so pages joined in order give back the original exactly.
 * @throws RangeError for a negative, fractional or past-the-end offset, so the model learns the valid range
 */
export function pageToolResult(full: string, offset: number, length: number = DEFAULT_PAGE_CHARS): ToolResultPage {
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number ≥ 0 (got ${offset}).`)
  if (offset >= full.length && !(offset === 0 && full.length === 0)) {
    throw new RangeError(`offset ${offset} is past the end: the result has ${full.length} characters (offsets 0–${Math.max(0, full.length - 1)}).`)
  }
  const size = Math.min(MAX_PAGE_CHARS, Math.max(1, Number.isFinite(length) ? Math.floor(length) : DEFAULT_PAGE_CHARS))
  let end = Math.min(full.length, offset + size)
  const lastCode = full.charCodeAt(end - 1)
  if (end < full.length && end - offset > 1 && lastCode >= 0xD800 && lastCode <= 0xDBFF) end--
  return { text: full.slice(offset, end), offset, total: full.length, nextOffset: end < full.length ? end : null }
}
