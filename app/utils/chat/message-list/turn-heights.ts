import type { MessageTurn } from './message-turns'
import { isWriting } from '~/db/message-status'
import { setNewest } from '~/utils/chat/recent-map'

/** Heights remembered at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 20_000

/** Measured height (px) of each turn's message by id, while the page lives. */
const heights = new Map<string, number>()
const turnByElement = new WeakMap<Element, () => MessageTurn>()
let observer: ResizeObserver | undefined

/** Turns per kind whose error is remembered (the oldest are forgotten first). */
const CALIBRATION_TURNS = 64

/**
 * How far the guess was off (measured − guessed, px) for the last turns of each kind measured in this page. The guess
 * knows lines and blocks, not the rows a message carries (its actions, a bubble's padding): that constant part it
 * learns here, so it stays right when the layout changes. Measured in Chromium on the long chat, before: a question
 * 42 px against 72, an answer 166 against 192. Not learned: a line more or less where the column is narrow (a phone's
 * turns of one kind wrap differently), so stand-ins there are still off by a few pixels (decision 0034).
 */
const errorsByKind = new Map<string, { errors: Map<string, number>, sum: number }>()

/**
 * What a turn's error is learned with: its role, what it holds, and its guessed size within a factor of two, so a
 * 20,000-px answer's error is never added to a 200-px one's stand-in (it made a short answer's stand-in thousands of
 * pixels tall, and opening such a chat could leave the view far from its newest message).
 */
function kindOf(turn: MessageTurn, guess: number): string {
  const { message } = turn
  const cards = message.role === 'tool' || (message.toolCalls?.length ?? 0) > 0 || turn.toolRows.length > 0
  return `${message.role}${cards ? '+cards' : ''}${message.content ? '+text' : ''}${message.content.includes('```') ? '+code' : ''}${message.attachments?.length ? '+files' : ''}:${Math.round(Math.log2(guess + 1))}`
}

function learn(turn: MessageTurn, height: number) {
  const guess = guessTurnHeight(turn)
  const kind = kindOf(turn, guess)
  let calibration = errorsByKind.get(kind)
  if (!calibration) errorsByKind.set(kind, calibration = { errors: new Map(), sum: 0 })
  const { errors } = calibration
  const id = turn.message.id
  const error = height - guess
  calibration.sum += error - (errors.get(id) ?? 0)
  errors.delete(id)
  errors.set(id, error)
  if (errors.size > CALIBRATION_TURNS) {
    const [oldest, oldError] = errors.entries().next().value!
    errors.delete(oldest)
    calibration.sum -= oldError
  }
}

function remember(id: string, height: number) {
  setNewest(heights, id, height, MAX_REMEMBERED)
}

/**
 * Remembers the height of `element` (the turn `turn()` returns, shown whole; a streaming turn's rows change) whenever
 * it changes, and how far the guess for it was off, through one ResizeObserver for every turn (no layout is read in a
 * scroll or mount task). Returns: stop observing.
 */
export function observeTurnHeight(element: Element, turn: () => MessageTurn): () => void {
  if (typeof ResizeObserver !== 'function') return () => {}
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const observed = turnByElement.get(entry.target)?.()
      const height = Math.round(entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height)
      // 0: taken out of the page, not a real height.
      if (!observed || height <= 0) continue
      remember(observed.message.id, height)
      // A reply still being written grows every frame and is only part of itself: guessing it again each time would
      // read the whole reply per frame, and its error says nothing of a finished turn's. Nor does a turn whose blocks
      // are still being shown over frames (a long answer as a chat opens): learned then, its error of minus thousands
      // of pixels made the next long answer's stand-in tiny, and the chat opened far from its newest message.
      if (!isWriting(observed.message.status) && !entry.target.querySelector('[data-rendering]')) learn(observed, height)
    }
  })
  turnByElement.set(element, turn)
  observer.observe(element)
  return () => {
    observer?.unobserve(element)
    turnByElement.delete(element)
  }
}

/** The last measured height of a turn, if it was shown whole during this page's life. */
export function rememberedTurnHeight(id: string): number | undefined {
  return heights.get(id)
}

const LINE_PX = 26
const CHARS_PER_LINE = 90

/**
 * A guess at a turn's height (px) before it was ever shown: lines of text, blocks, tool cards, corrected by how far
 * the guesses for turns of its kind measured in this page were off. Close enough that a stand-in and the whole turn
 * differ little, so the list moves little when the turn replaces its stand-in.
 */
export function estimateTurnHeight(turn: MessageTurn): number {
  const guess = guessTurnHeight(turn)
  const calibration = errorsByKind.get(kindOf(turn, guess))
  return calibration?.errors.size ? Math.max(0, Math.round(guess + calibration.sum / calibration.errors.size)) : guess
}

/** Lines of text, blocks and tool cards, before any correction. */
function guessTurnHeight(turn: MessageTurn): number {
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
