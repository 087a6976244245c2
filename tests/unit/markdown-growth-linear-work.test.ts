// A streaming reply's markdown is split into blocks again on each update (ChatMessageContent); the work of a
// reply's updates grows linearly with the reply, measured as in text-tool-call-linear-work.test.ts. The copy of
// the block list each update hands to Vue is not counted: Vue walks that list on each render anyway.
import { describe, expect, it } from 'vitest'
import { measureWork } from '~~/tests/unit/helpers/measure-work'
import { splitGrowingMarkdown, splitMarkdownBlocks, type MarkdownBlockSplit } from '~/utils/chat/markdown/markdown-blocks'

const DELTA = 8

function grow(text: string): { blocks: string[], work: number } {
  const { result, work } = measureWork(() => {
    let split: MarkdownBlockSplit | undefined
    for (let end = DELTA; end < text.length + DELTA; end += DELTA) split = splitGrowingMarkdown(split, text.slice(0, end))
    return split!.blocks
  })
  return { blocks: result, work }
}

/** Replies built of n units each (so that 4n units are exactly 4 times as long). */
const REPLIES: [string, (units: number) => string][] = [
  ['paragraphs', units => 'Some words in a paragraph.\n\n'.repeat(units)],
  ['one long code block', units => `\`\`\`js\n${'let x = 1;\n'.repeat(units)}`],
  ['one long paragraph without a line break', units => 'word '.repeat(units)],
  ['one long list', units => '- item\n'.repeat(units)],
  ['lines with CRLF breaks', units => 'a line\r\n\r\n'.repeat(units)],
]

describe('markdown growth work grows linearly with the reply', () => {
  it.each(REPLIES)('%s: 4 times the reply costs at most 4.1 times the work (where the deltas fall), with the blocks of the whole', (_, build) => {
    const [small, large] = [grow(build(400)), grow(build(1_600))]
    expect(large.blocks).toEqual(splitMarkdownBlocks(build(1_600)))
    expect(large.work / small.work).toBeLessThanOrEqual(4.1)
  })

  it('splits whole again from a split that was already grown once (its state moved on)', () => {
    const first = splitGrowingMarkdown(undefined, '1. one\n\n2')
    expect(splitGrowingMarkdown(first, '1. one\n\n2. two').blocks).toEqual(['1. one\n\n2. two'])
    expect(splitGrowingMarkdown(first, '1. one\n\n2\n\nthree').blocks).toEqual(['1. one', '2', 'three'])
  })

  it('joins a CR at the end of one update and an LF at the start of the next into one line break', () => {
    let split = splitGrowingMarkdown(undefined, 'a\r')
    split = splitGrowingMarkdown(split, 'a\r\n\r')
    split = splitGrowingMarkdown(split, 'a\r\n\r\nb')
    expect(split.blocks).toEqual(['a', 'b'])
    expect(split.source).toBe('a\n\nb')
  })
})
