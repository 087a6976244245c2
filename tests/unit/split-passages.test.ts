import { describe, expect, it } from 'vitest'
import { splitIntoPassages } from '~/utils/chat/documents/split-passages'
import { PASSAGE_MAX_CHARS } from '~/utils/chat/documents/document-limits'

const sentence = (index: number) => `Sentence number ${index} talks about topic ${index} in a few plain words.`

describe('splitting a document into passages', () => {
  it('keeps a short document whole', () => {
    expect(splitIntoPassages([{ text: '  Hello\r\n\r\nworld.  ' }])).toEqual([{ text: 'Hello world.' }])
  })

  it('cuts long text near the target on sentence boundaries, each passage starting with the end of the one before', () => {
    const text = Array.from({ length: 60 }, (_, index) => sentence(index)).join(' ')
    const passages = splitIntoPassages([{ text }], { targetChars: 300, overlapChars: 60 })
    expect(passages.length).toBeGreaterThan(8)
    for (const passage of passages) expect(passage.text.length).toBeLessThanOrEqual(300 + 60)
    for (const [index, passage] of passages.slice(1).entries()) {
      const before = passages[index]!.text
      // the overlap starts at a word of the passage before
      const firstWords = passage.text.split(' ').slice(0, 3).join(' ')
      expect(before).toContain(firstWords)
    }
    // every sentence is in some passage, whole
    for (let index = 0; index < 60; index++) expect(passages.some(passage => passage.text.includes(sentence(index)))).toBe(true)
  })

  it('keeps paragraphs together when they fit, and never spans two pages', () => {
    const passages = splitIntoPassages([
      { page: 1, text: 'First paragraph.\n\nSecond paragraph.' },
      { page: 2, text: 'Third paragraph on page two.' },
    ])
    expect(passages).toEqual([
      { page: 1, text: 'First paragraph. Second paragraph.' },
      { page: 2, text: 'Third paragraph on page two.' },
    ])
  })

  it('cuts a huge line without spaces at the cap, in linear time', () => {
    const text = 'x'.repeat(2_000_000)
    // CPU time, not the clock: a test run in the background may wait seconds for a core (8 ms here; quadratic work
    // on 2 million characters would take minutes)
    const started = process.cpuUsage()
    const passages = splitIntoPassages([{ text }])
    const { user, system } = process.cpuUsage(started)
    expect((user + system) / 1_000).toBeLessThan(2_000)
    expect(passages.length).toBeGreaterThan(1_000)
    for (const passage of passages) expect(passage.text.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS)
    expect(passages.reduce((sum, passage) => sum + passage.text.replace(/ /g, '').length, 0)).toBeGreaterThanOrEqual(text.length)
  })

  it('gives nothing for a page of white space', () => {
    expect(splitIntoPassages([{ page: 1, text: ' \n\n \t ' }])).toEqual([])
  })
})
