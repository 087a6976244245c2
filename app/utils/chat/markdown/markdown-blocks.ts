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
/** Three or more of one of `-`, `*`, `_`, with spaces or tabs between (spelt out per character, no back-reference). */
const THEMATIC_BREAK = /^ {0,3}(?:-(?:[ \t]*-){2,}|\*(?:[ \t]*\*){2,}|_(?:[ \t]*_){2,})[ \t]*$/

function listKind(line: string): 'bullet' | 'ordered' | null {
  // A thematic break such as `* * *` or `- - -` is not a list item.
  if (THEMATIC_BREAK.test(line)) return null
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
  return splitGrowingMarkdown(undefined, source).blocks
}

/** A split, and where each block starts in the (line-break normalised) source, to split more text later. */
export interface MarkdownBlockSplit {
  source: string
  blocks: string[]
  starts: number[]
  /** Where the split stopped: the state after the last complete line, for the next call to go on from. */
  resume?: SplitResume
}

/** The split of every complete line so far; the last line may still grow, so it is read again each time. */
interface SplitResume {
  /** The source as given (before line breaks were normalised). */
  raw: string
  state: LineState
  /** The text after the last line break. */
  lastLine: string
  /** Set once a later split went on from this one: its state has moved on, so it cannot be resumed twice. */
  used: boolean
}

/**
 * `splitMarkdownBlocks` for a reply that grows: when `source` continues `previous`'s, the split goes on from the
 * last complete line, so each update costs the new text (and a copy of the block list), not the whole reply.
 * `previous` must be the last split this returned for the reply: its state is taken over.
 */
export function splitGrowingMarkdown(previous: MarkdownBlockSplit | undefined, source: string): MarkdownBlockSplit {
  const resume = previous?.resume
  if (previous && resume && !resume.used && continues(source, resume.raw)) {
    resume.used = true
    // A CR that ended the old text became a line break already; an LF right after it belongs to it.
    let added = source.slice(resume.raw.length)
    if (resume.raw.endsWith('\r') && added.startsWith('\n')) added = added.slice(1)
    return splitFrom(resume.state, resume.lastLine + normalize(added), previous.source + normalize(added), source)
  }
  return splitFrom(createLineState(), normalize(source), normalize(source), source)
}

/** `source.startsWith(start)`, compared as one block of memory (startsWith reads it a character at a time). */
function continues(source: string, start: string): boolean {
  return source.length >= start.length && source.slice(0, start.length) === start
}

function splitFrom(state: LineState, text: string, source: string, raw: string): MarkdownBlockSplit {
  const lines = text.split('\n')
  const lastLine = lines.pop()!
  for (const line of lines) feedLine(state, line)
  const { blocks, starts } = finishWith(state, lastLine)
  return { source, blocks, starts, resume: { raw, state, lastLine, used: false } }
}

function normalize(source: string): string {
  return source.replace(/\r\n?/g, '\n')
}

/** The splitter between two lines. */
interface LineState {
  blocks: string[]
  starts: number[]
  /** The block being read (its lines joined), undefined between blocks. */
  current: string | undefined
  currentStart: number
  currentListKind: 'bullet' | 'ordered' | null
  fence: { char: string, length: number } | null
  pendingBlank: boolean
  /** Where the next line starts. */
  offset: number
}

function createLineState(): LineState {
  return { blocks: [], starts: [], current: undefined, currentStart: 0, currentListKind: null, fence: null, pendingBlank: false, offset: 0 }
}

function flushBlock(state: LineState): void {
  if (state.current !== undefined) {
    state.blocks.push(state.current)
    state.starts.push(state.currentStart)
  }
  state.current = undefined
  state.currentListKind = null
}

function pushLine(state: LineState, line: string, at: number): void {
  if (state.current === undefined) {
    state.current = line
    state.currentStart = at
  }
  else state.current += `\n${line}`
}

function feedLine(state: LineState, line: string): void {
  const at = state.offset
  state.offset += line.length + 1
  if (state.fence) {
    pushLine(state, line, at)
    const close = FENCE.exec(line)
    if (close && close[1]![0] === state.fence.char && close[1]!.length >= state.fence.length && /^[ \t]*$/.test(line.slice(close[0].length))) {
      state.fence = null
    }
    return
  }
  if (isBlank(line)) {
    if (state.current !== undefined) state.pendingBlank = true
    return
  }
  if (state.pendingBlank) {
    state.pendingBlank = false
    const indented = /^[ \t]/.test(line)
    const kind = listKind(line)
    const sameList = kind !== null && kind === state.currentListKind
    if (indented || sameList) state.current += '\n'
    else flushBlock(state)
  }
  // Top-level items only: a nested bullet list must not end the ordered list around it.
  if (!/^[ \t]/.test(line)) state.currentListKind = listKind(line) ?? state.currentListKind
  pushLine(state, line, at)
  const open = FENCE.exec(line)
  // A backtick fence's info string may not contain backticks; such a line is inline code, not a fence.
  if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
    state.fence = { char: open[1]![0]!, length: open[1]!.length }
  }
}

/** The blocks once `lastLine` (still growing) is read too, leaving `state` as it was but for its lists' copies. */
function finishWith(state: LineState, lastLine: string): { blocks: string[], starts: number[] } {
  const end: LineState = { ...state, blocks: [...state.blocks], starts: [...state.starts], fence: state.fence && { ...state.fence } }
  feedLine(end, lastLine)
  flushBlock(end)
  return { blocks: end.blocks, starts: end.starts }
}
