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
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  const blocks: string[] = []
  let current: string[] = []
  let currentListKind: 'bullet' | 'ordered' | null = null
  let fence: { char: string, length: number } | null = null
  let pendingBlank = false

  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'))
    current = []
    currentListKind = null
  }

  for (const line of lines) {
    if (fence) {
      current.push(line)
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
    current.push(line)
    const open = FENCE.exec(line)
    // A backtick fence's info string may not contain backticks; such a line is inline code, not a fence.
    if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
      fence = { char: open[1]![0]!, length: open[1]!.length }
    }
  }
  flush()
  return blocks
}
