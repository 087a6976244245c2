/**
 * Splitting a markdown reply into independently renderable blocks, so that while a reply streams only its last
 * block changes and the blocks before it keep their rendered HTML.
 *
 * A blank line ends a block, except:
 * - inside a fenced code block (``` or ~~~, closed by the same character at least as long);
 * - when the next line is indented (a list item's continuation, or more of an indented code block);
 * - between items of one list (so `1.` / `2.` stay one `<ol>` and loose lists keep their numbering).
 * Joining the blocks with a blank line gives markdown that renders the same as the source.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const BULLET_ITEM = /^ {0,3}[-+*][ \t]/
const ORDERED_ITEM = /^ {0,3}\d{1,9}[.)][ \t]/

function listKind(line: string): 'bullet' | 'ordered' | null {
  // A thematic break such as `* * *` or `- - -` is not a list item.
  if (/^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line)) return null
  if (BULLET_ITEM.test(line)) return 'bullet'
  if (ORDERED_ITEM.test(line)) return 'ordered'
  return null
}

function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line)
}

/**
 * Splits markdown at blank lines outside code fences (see the module comment for the exceptions).
 * An unclosed fence (still streaming) runs to the end of the source. Returns no empty blocks.
 */
export function splitMarkdownBlocks(source: string): string[] {
  return splitWithStarts(normalize(source)).blocks
}

/** A split, and where each block starts in the (line-break normalised) source, to split more text later. */
export interface MarkdownBlockSplit {
  source: string
  blocks: string[]
  starts: number[]
}

/**
 * `splitMarkdownBlocks` for a reply that grows: when `source` continues `previous.source`, only the text from the
 * block before the last on is split again, so each update costs the new text, not the whole reply. Not from the last
 * block: the line that ended the one before it may be the last line, still arriving (`2` ended a list, then `2. x`
 * continues it).
 */
export function splitGrowingMarkdown(previous: MarkdownBlockSplit | undefined, source: string): MarkdownBlockSplit {
  const text = normalize(source)
  if (previous && previous.blocks.length > 0 && text.startsWith(previous.source)) {
    const kept = Math.max(0, previous.blocks.length - 2)
    const from = previous.starts[kept]!
    const tail = splitWithStarts(text.slice(from))
    return {
      source: text,
      blocks: [...previous.blocks.slice(0, kept), ...tail.blocks],
      starts: [...previous.starts.slice(0, kept), ...tail.starts.map(start => start + from)],
    }
  }
  return { source: text, ...splitWithStarts(text) }
}

function normalize(source: string): string {
  return source.replace(/\r\n?/g, '\n')
}

function splitWithStarts(source: string): { blocks: string[], starts: number[] } {
  const lines = source.split('\n')
  const blocks: string[] = []
  let current: string[] = []
  let currentStart = 0
  const starts: number[] = []
  let currentListKind: 'bullet' | 'ordered' | null = null
  let fence: { char: string, length: number } | null = null
  let pendingBlank = false
  let offset = 0

  const flush = () => {
    if (current.length > 0) {
      blocks.push(current.join('\n'))
      starts.push(currentStart)
    }
    current = []
    currentListKind = null
  }
  const push = (line: string, at: number) => {
    if (current.length === 0) currentStart = at
    current.push(line)
  }

  for (const line of lines) {
    const at = offset
    offset += line.length + 1
    if (fence) {
      push(line, at)
      const close = FENCE.exec(line)
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && /^[ \t]*$/.test(line.slice(close[0].length))) {
        fence = null
      }
      continue
    }
    if (isBlank(line)) {
      if (current.length > 0) pendingBlank = true
      continue
    }
    if (pendingBlank) {
      pendingBlank = false
      const indented = /^[ \t]/.test(line)
      const kind = listKind(line)
      const sameList = kind !== null && kind === currentListKind
      if (indented || sameList) current.push('')
      else flush()
    }
    // Top-level items only: a nested bullet list must not end the ordered list around it.
    if (!/^[ \t]/.test(line)) currentListKind = listKind(line) ?? currentListKind
    push(line, at)
    const open = FENCE.exec(line)
    // A backtick fence's info string may not contain backticks; such a line is inline code, not a fence.
    if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
      fence = { char: open[1]![0]!, length: open[1]!.length }
    }
  }
  flush()
  return { blocks, starts }
}
