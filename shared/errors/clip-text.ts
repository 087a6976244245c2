/** Shortening text that came from a model or a plugin before it goes into an error message. */

const ELLIPSIS = '…'

/**
 * `text` cut to at most `maxChars` characters, ending in '…' when cut. Never splits a surrogate pair, so the
 * result is still valid UTF-16 when it is stored or sent back to the model.
 */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return `${text.slice(0, boundaryBefore(text, Math.max(0, maxChars - 1)))}${ELLIPSIS}`
}

/**
 * `text` cut to at most `maxChars` characters by dropping its middle: paths and names say the most at both
 * ends (`items[0].….name`).
 */
export function clipMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const keep = Math.max(0, maxChars - 1)
  const head = boundaryBefore(text, Math.ceil(keep / 2))
  const tailStart = boundaryAfter(text, text.length - Math.floor(keep / 2))
  return `${text.slice(0, head)}${ELLIPSIS}${text.slice(tailStart)}`
}

/** `end`, moved back by one when it would cut after a high surrogate. */
function boundaryBefore(text: string, end: number): number {
  const code = text.charCodeAt(end - 1)
  return code >= 0xD800 && code <= 0xDBFF ? end - 1 : end
}

/** `start`, moved forward by one when it would start on a low surrogate. */
function boundaryAfter(text: string, start: number): number {
  const code = text.charCodeAt(start)
  return code >= 0xDC00 && code <= 0xDFFF ? start + 1 : start
}
