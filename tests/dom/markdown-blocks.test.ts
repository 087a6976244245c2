import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown'
import { splitMarkdownBlocks } from '~/utils/chat/markdown-blocks'

describe('splitMarkdownBlocks', () => {
  it('splits paragraphs at blank lines', () => {
    expect(splitMarkdownBlocks('First.\n\nSecond\nstill second.\n\n\nThird.')).toEqual(['First.', 'Second\nstill second.', 'Third.'])
  })

  it('keeps a code fence with blank lines inside as one block', () => {
    const source = 'Intro\n\n```python\ndef f():\n\n    return 1\n```\n\nAfter'
    expect(splitMarkdownBlocks(source)).toEqual(['Intro', '```python\ndef f():\n\n    return 1\n```', 'After'])
  })

  it('runs an unclosed fence to the end while it streams', () => {
    expect(splitMarkdownBlocks('Text\n\n~~~\na\n\nb')).toEqual(['Text', '~~~\na\n\nb'])
  })

  it('closes a fence only with the same character at least as long', () => {
    expect(splitMarkdownBlocks('````\n```\n\nstill code\n````\n\nnext')).toEqual(['````\n```\n\nstill code\n````', 'next'])
  })

  it('keeps the items of a loose list together so numbering continues', () => {
    expect(splitMarkdownBlocks('1. one\n\n2. two\n\n3. three\n\nDone.')).toEqual(['1. one\n\n2. two\n\n3. three', 'Done.'])
  })

  it('keeps indented continuation lines with their list item', () => {
    expect(splitMarkdownBlocks('- item\n\n  more about the item\n\nNext')).toEqual(['- item\n\n  more about the item', 'Next'])
  })

  it('treats inline triple backticks as text, not as a fence', () => {
    expect(splitMarkdownBlocks('Use ```code``` here\n\nNext')).toEqual(['Use ```code``` here', 'Next'])
  })

  it('returns no blocks for empty or blank text', () => {
    expect(splitMarkdownBlocks('')).toEqual([])
    expect(splitMarkdownBlocks('\n\n  \n')).toEqual([])
  })

  it('renders block by block exactly as the whole text renders', () => {
    const samples = [
      '# Plan\n\nWe will:\n\n1. Fetch\n2. Parse\n\n3. Store\n\n```ts\nconst a = 1\n\nconst b = 2\n```\n\n> note\n> more\n\n- a\n  - nested\n\n- b\n\nEnd with https://example.com',
      'Para one\nwith break\n\n| h | i |\n|---|---|\n| 1 | 2 |\n\n---\n\n* * *\n\nLast',
      'Text\r\n\r\nWindows lines\r\n',
    ]
    for (const source of samples) {
      const whole = renderMarkdown(source).replace(/\n/g, '')
      const parts = splitMarkdownBlocks(source).map(renderMarkdown).join('').replace(/\n/g, '')
      expect(parts).toBe(whole)
    }
  })
})
