/** cfworker's instance locations (`#/items/2/na%C3%AFve`) as the dotted paths the model reads (`items[2].naïve`). */

/**
 * Longest location decoded. The keys are the model's, so a location can be megabytes long: it is cut before
 * decoding (keeping both ends), and cut again for display by the error message.
 */
const MAX_LOCATION_CHARS = 1_000

/** `#/items/2/name` → `items[2].name`; `#` → '' (the arguments as a whole). */
export function formatInstancePath(location: string): string {
  const segments = clipEncodedMiddle(location, MAX_LOCATION_CHARS).replace(/^#\/?/, '').split('/').filter(segment => segment !== '')
  return segments.reduce<string>((path, segment) => {
    const key = decodeSegment(segment)
    return /^\d+$/.test(key) ? `${path}[${key}]` : joinPath(path, key)
  }, '')
}

/** `a` + `b` → `a.b`; '' + `b` → `b`. */
export function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

function decodeSegment(segment: string): string {
  let decoded = segment
  try {
    decoded = decodeURI(segment)
  }
  catch {}
  return decoded.replace(/%23/g, '#').replace(/~1/g, '/').replace(/~0/g, '~')
}

/**
 * `text` cut to about `maxChars` by dropping its middle, at places where a character's encoding starts: a cut
 * inside `%C3%A9` would make the whole segment undecodable.
 */
function clipEncodedMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const half = Math.floor((maxChars - 1) / 2)
  return `${text.slice(0, encodingStart(text, half))}…${text.slice(encodingStart(text, text.length - half))}`
}

/** UTF-8 has at most three continuation bytes after the first byte of a character. */
const MAX_CONTINUATION_BYTES = 3

/** The nearest position at or before `index` where a character's encoding starts. */
function encodingStart(text: string, index: number): number {
  let start = index
  if (text[start - 1] === '%') start -= 1
  else if (text[start - 2] === '%') start -= 2
  for (let step = 0; step < MAX_CONTINUATION_BYTES && start >= 3 && isContinuationEscape(text, start); step++) start -= 3
  return start
}

/** `%80`–`%BF`: a byte in the middle of a UTF-8 character. */
function isContinuationEscape(text: string, index: number): boolean {
  return text[index] === '%' && /[89ab]/i.test(text[index + 1] ?? '')
}
