/**
 * An MCP resource attached to a user's message travels inline in the text the model reads, under its URI. The
 * browser writes the block; the demo model reads it back to tell the user's own words from the attached text
 * (a resource that mentions "note" is not a request to call `read_note`). One format, written and read here.
 */

export interface InlineResource {
  uri: string
  /** The file name and size, as written in the opening line ("Shopping list.txt, 18 bytes"). */
  label: string
  text: string
}

const OPEN = '[Resource '
const END = '[End of resource '

/** The block for one resource: an opening line naming it, its text, a closing line. */
export function formatInlineResource(uri: string, label: string, text: string): string {
  return `${OPEN}${uri} (${label})]\n${text}\n${END}${uri}]`
}

/**
 * Splits a message's text into the user's own words and the resources written inline. Linear: each block is found
 * with `indexOf` from where the last one ended; an opening line without its closing line is left as the user's text.
 */
export function splitInlineResources(text: string): { own: string, resources: InlineResource[] } {
  // Most messages carry none: they are handed back as they are, after one scan.
  if (!text.includes(OPEN)) return { own: text, resources: [] }
  const resources: InlineResource[] = []
  const own: string[] = []
  let from = 0
  while (from < text.length) {
    const start = text.indexOf(OPEN, from)
    if (start === -1) break
    const lineEnd = text.indexOf('\n', start)
    const header = lineEnd === -1 ? undefined : /^\[Resource (\S+) \(([^\n]*)\)\]$/.exec(text.slice(start, lineEnd))
    const closing = header ? `\n${END}${header[1]}]` : undefined
    const end = closing ? text.indexOf(closing, lineEnd) : -1
    if (!header || end === -1) {
      own.push(text.slice(from, start + OPEN.length))
      from = start + OPEN.length
      continue
    }
    own.push(text.slice(from, start))
    resources.push({ uri: header[1]!, label: header[2]!, text: text.slice(lineEnd + 1, end) })
    from = end + closing!.length
  }
  own.push(text.slice(from))
  return { own: own.join('').replace(/\n{3,}/g, '\n\n').trim(), resources }
}
