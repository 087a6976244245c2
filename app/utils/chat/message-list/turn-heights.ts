import type { MessageTurn } from './message-turns'

/** Heights remembered at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 20_000

/** Measured height (px) of each turn's message by id, while the page lives. */
const heights = new Map<string, number>()
const idByElement = new WeakMap<Element, string>()
let observer: ResizeObserver | undefined

function remember(id: string, height: number) {
  heights.delete(id)
  heights.set(id, height)
  if (heights.size > MAX_REMEMBERED) heights.delete(heights.keys().next().value!)
}

/**
 * Remembers the height of `element` (a turn shown whole) under `id` whenever it changes, through one ResizeObserver
 * for every turn (no layout is read in a scroll or mount task). Returns: stop observing.
 */
export function observeTurnHeight(element: Element, id: string): () => void {
  if (typeof ResizeObserver !== 'function') return () => {}
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const turnId = idByElement.get(entry.target)
      const height = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height
      // 0: taken out of the page, not a real height.
      if (turnId && height > 0) remember(turnId, Math.round(height))
    }
  })
  idByElement.set(element, id)
  observer.observe(element)
  return () => {
    observer?.unobserve(element)
    idByElement.delete(element)
  }
}

/** The last measured height of a turn, if it was shown whole during this page's life. */
export function rememberedTurnHeight(id: string): number | undefined {
  return heights.get(id)
}

const LINE_PX = 26
const CHARS_PER_LINE = 90

/**
 * A guess at a turn's height (px) before it was ever shown: lines of text, blocks, tool cards. Close enough that a
 * stand-in and the whole turn differ little, so the list moves little when the turn replaces its stand-in.
 */
export function estimateTurnHeight(turn: MessageTurn): number {
  const { message } = turn
  // Blank lines only separate blocks (their gap is counted per block).
  const lines = (text: string) => text.split('\n').reduce((sum, line) => sum + (line.trim() ? Math.ceil(line.length / CHARS_PER_LINE) : 0), 0)
  // a row of thumbnails (and document chips) above the question
  const files = message.attachments?.length ? 136 : 0
  if (message.role === 'user' || message.role === 'system') return 16 + files + LINE_PX * Math.max(1, lines(message.content))
  const cards = message.role === 'tool' ? 1 : Math.max(message.toolCalls?.length ?? 0, turn.toolRows.length)
  const blocks = message.content ? message.content.split(/\n{2,}/).length : 0
  return (message.content ? LINE_PX * lines(message.content) + 12 * blocks : 0) + 58 * cards + (message.reasoning ? 40 : 0)
}
