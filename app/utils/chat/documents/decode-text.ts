// Control characters other than tab, line feed, form feed and carriage return: rare in text, common in binary.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g
const REPLACEMENT = /\uFFFD/g
const SAMPLE_CHARS = 64 * 1024
/** Share of odd characters in the sample above which a file is taken for binary data. */
const MAX_ODD_SHARE = 0.01

function oddShare(text: string, pattern: RegExp): number {
  const sample = text.slice(0, SAMPLE_CHARS)
  return sample.length === 0 ? 0 : (sample.match(pattern)?.length ?? 0) / sample.length
}

/**
 * A file's bytes as text: UTF-8 (or UTF-16 with its byte order mark), else Windows-1252 when the bytes are not
 * UTF-8. Throws, with a message for the user, when they read as binary data rather than text.
 */
export function decodeText(bytes: Uint8Array, name: string): string {
  let text: string
  if (bytes[0] === 0xFF && bytes[1] === 0xFE) text = new TextDecoder('utf-16le').decode(bytes)
  else if (bytes[0] === 0xFE && bytes[1] === 0xFF) text = new TextDecoder('utf-16be').decode(bytes)
  else {
    text = new TextDecoder('utf-8').decode(bytes)
    if (oddShare(text, REPLACEMENT) > MAX_ODD_SHARE) text = new TextDecoder('windows-1252').decode(bytes)
  }
  if (text.includes('\u0000') || oddShare(text, CONTROL) > MAX_ODD_SHARE) {
    throw new Error(`${name} does not look like text (binary data?), so it cannot be searched.`)
  }
  return text
}
