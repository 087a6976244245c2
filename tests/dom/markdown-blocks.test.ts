import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { splitGrowingMarkdown, splitMarkdownBlocks, type MarkdownBlockSplit } from '~/utils/chat/markdown/markdown-blocks'

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

describe('splitGrowingMarkdown', () => {
  /** Every recorded stream with text, its deltas as the app's stream reader yields them. */
  async function recordedTexts(): Promise<string[][]> {
    const { readFileSync } = await import('node:fs')
    const { resolve } = await import('node:path')
    const { readChatStream } = await import('#shared/stream/read-chat-stream')
    const corpus = resolve('tests/fixtures/corpora/sse-streams')
    const index = JSON.parse(readFileSync(resolve(corpus, 'index.json'), 'utf8')) as { streams: Array<{ file: string, features: string[] }> }
    const all: string[][] = []
    for (const { file } of index.streams.filter(stream => stream.features.includes('text'))) {
      const bytes = readFileSync(resolve(corpus, file))
      const body = new ReadableStream<Uint8Array>({ start(controller) { controller.enqueue(new Uint8Array(bytes)); controller.close() } })
      const deltas: string[] = []
      for await (const event of readChatStream(body)) if (event.type === 'text-delta') deltas.push(event.text)
      if (deltas.length > 1) all.push(deltas)
    }
    return all
  }

  it('gives the blocks of splitting the whole text, after every delta of every recorded stream', async () => {
    const streams = await recordedTexts()
    expect(streams.length).toBeGreaterThan(20)
    for (const deltas of streams) {
      let text = ''
      let split: MarkdownBlockSplit | undefined
      for (const delta of deltas) {
        text += delta
        split = splitGrowingMarkdown(split, text)
        expect(split.blocks).toEqual(splitMarkdownBlocks(text))
      }
    }
  })

  it('re-splits a block that the next line, still arriving, seemed to end', () => {
    let split = splitGrowingMarkdown(undefined, '1. one\n\n2')
    expect(split.blocks).toEqual(['1. one', '2'])
    split = splitGrowingMarkdown(split, '1. one\n\n2. two')
    expect(split.blocks).toEqual(['1. one\n\n2. two'])
    // Text that does not continue the last one (an edit, a retry) is split whole.
    expect(splitGrowingMarkdown(split, 'Other\n\ntext').blocks).toEqual(['Other', 'text'])
  })
})
