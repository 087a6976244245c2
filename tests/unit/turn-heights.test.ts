// A turn's stand-in (shown while the list mounts turns over frames) is close to the turn's real height, so the
// list moves little when the turn replaces it. The guess counts lines, blocks and tool cards; what it cannot know
// (the page's width and fonts, a message's action row, a bubble's padding) it learns from the turns measured in the
// page. Real heights measured in Chromium at 1280 px on the long chat: a question 72 px, a turn with one tool card
// 60 px, an answer of four short blocks 192 px.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { groupMessageTurns, type MessageTurn } from '~/utils/chat/message-list/message-turns'
import { estimateTurnHeight, observeTurnHeight, rememberedTurnHeight } from '~/utils/chat/message-list/turn-heights'
import { longChat } from '../e2e/support/seed-chat'

/** A ResizeObserver the test drives: `resize(element, height)` delivers one entry, as the browser would. */
const observed = new Set<Element>()
let deliver: ((entries: unknown[]) => void) | undefined
class FakeResizeObserver {
  constructor(callback: (entries: unknown[]) => void) { deliver = callback }
  observe(element: Element) { observed.add(element) }
  unobserve(element: Element) { observed.delete(element) }
  disconnect() { observed.clear() }
}
/** A turn's element; `rendering`: some of its blocks are still to be shown (`[data-rendering]` inside). */
function turnElement(rendering = false) {
  return { querySelector: (selector: string) => (rendering && selector === '[data-rendering]' ? {} : null) } as unknown as Element
}
function resize(element: Element, height: number) {
  if (!observed.has(element)) throw new Error('not observed')
  deliver!([{ target: element, borderBoxSize: [{ blockSize: height }], contentRect: { height } }])
}

describe('estimateTurnHeight', () => {
  const turns = groupMessageTurns(longChat('t-heights', 40).messages)
  const questions = turns.filter(turn => turn.message.role === 'user')
  const answers = turns.filter(turn => turn.message.role === 'assistant' && !turn.message.toolCalls?.length && !turn.message.content.includes('```'))

  beforeAll(() => vi.stubGlobal('ResizeObserver', FakeResizeObserver))
  afterAll(() => vi.unstubAllGlobals())

  it.each([
    ['a one-line question', 0, 72],
    ['a turn with one tool card', 1, 60],
    ['an answer of four short blocks', 2, 192],
  ])('guesses %s within half of its real height before any turn was measured', (_what, index, real) => {
    expect(Math.abs(estimateTurnHeight(turns[index]!) - real)).toBeLessThanOrEqual(real / 2)
  })

  it('grows with the text', () => {
    const short = turns[2]!
    const long = { ...short, message: { ...short.message, content: `${short.message.content}\n\n${'A longer paragraph. '.repeat(40)}` } }
    expect(estimateTurnHeight(long)).toBeGreaterThan(estimateTurnHeight(short) + 100)
  })

  it('learns from the turns measured in the page: the next unseen question and answer get their real height', () => {
    const unseenQuestion = questions.at(-1)!
    const unseenAnswer = answers.at(-1)!
    const guessedQuestion = estimateTurnHeight(unseenQuestion)
    expect(Math.abs(guessedQuestion - 72)).toBeGreaterThan(10)

    const show = (turn: MessageTurn, height: number) => {
      const element = turnElement()
      const stop = observeTurnHeight(element, () => turn)
      resize(element, height)
      return stop
    }
    for (const turn of questions.slice(0, 3)) show(turn, 72)
    for (const turn of answers.slice(0, 3)) show(turn, 192)

    expect(estimateTurnHeight(unseenQuestion)).toBe(72)
    expect(estimateTurnHeight(unseenAnswer)).toBe(192)
    // a turn measured is remembered exactly
    expect(rememberedTurnHeight(questions[0]!.message.id)).toBe(72)
    // a kind never measured keeps the plain guess
    const withFiles = { ...unseenQuestion, message: { ...unseenQuestion.message, attachments: [{ id: 'a', name: 'a.png', mimeType: 'image/png', size: 1 }] } } as unknown as MessageTurn
    expect(estimateTurnHeight(withFiles)).toBe(guessedQuestion + 136)
  })

  it('a turn measured again (it grew: a code block highlighted, a detail opened) counts once, with its last height', () => {
    const turn = answers[5]!
    const element = turnElement()
    observeTurnHeight(element, () => turn)
    resize(element, 192)
    const before = estimateTurnHeight(answers.at(-2)!)
    resize(element, 192 + 4 * 40)
    // four answers learned (three at 192, this one 40 px taller on average each): the mean moves by 160 / 4
    expect(estimateTurnHeight(answers.at(-2)!)).toBe(before + 40)
  })

  it('a reply still being written is remembered but not learned from: its height says nothing of a finished answer', () => {
    const finished = answers.at(-3)!
    const before = estimateTurnHeight(finished)
    const writing = { ...answers[6]!, message: { ...answers[6]!.message, status: 'streaming' as const } }
    const element = turnElement()
    observeTurnHeight(element, () => writing)
    resize(element, 5000)
    expect(rememberedTurnHeight(writing.message.id)).toBe(5000)
    expect(estimateTurnHeight(finished)).toBe(before)
  })

  it('a very long answer\'s error is not added to a short answer\'s stand-in (a size apart by more than twice is another kind)', () => {
    const short = answers.at(-4)!
    const before = estimateTurnHeight(short)
    const long = { ...answers[7]!, message: { ...answers[7]!.message, content: `${answers[7]!.message.content}\n\n${'A longer paragraph. '.repeat(4000)}` } }
    const element = turnElement()
    const plain = estimateTurnHeight(long)
    observeTurnHeight(element, () => long)
    resize(element, plain + 3000)
    expect(estimateTurnHeight(short)).toBe(before)
    // while another long answer gets the correction
    const other = { ...long, message: { ...long.message, id: 'another-long-answer' } }
    expect(estimateTurnHeight(other)).toBe(plain + 3000)
  })

  it('a turn whose blocks are still being shown is remembered but not learned from, until they all are', () => {
    const answer = answers[4]!
    const other = answers.at(-1)!
    const before = estimateTurnHeight(other)
    const rendering = turnElement(true)
    observeTurnHeight(rendering, () => answer)
    resize(rendering, 40)
    expect(rememberedTurnHeight(answer.message.id)).toBe(40)
    expect(estimateTurnHeight(other)).toBe(before)
  })
})

