import { describe, expect, it } from 'vitest'
import { createThinkTagSplitter } from '#shared/stream/think-tag-splitter'

function split(chunks: string[]) {
  const splitter = createThinkTagSplitter()
  let text = ''
  let reasoning = ''
  for (const chunk of chunks) {
    const part = splitter.push(chunk)
    text += part.text
    reasoning += part.reasoning
  }
  const last = splitter.flush()
  return { text: text + last.text, reasoning: reasoning + last.reasoning }
}

/** Every way to cut `source` into two pieces, plus one character at a time. */
function chunkings(source: string): string[][] {
  const result = [[source], [...source]]
  for (let at = 1; at < source.length; at++) result.push([source.slice(0, at), source.slice(at)])
  return result
}

describe('think tag splitter', () => {
  it('moves a leading <think> block to reasoning and keeps the answer as text, however it is chunked', () => {
    const source = '<think>\nThe user wants 12*7. That is 84.\n</think>\n\n12*7 = **84**.'
    for (const chunks of chunkings(source)) {
      expect(split(chunks)).toEqual({ reasoning: '\nThe user wants 12*7. That is 84.\n', text: '12*7 = **84**.' })
    }
  })

  it('accepts <thinking> and leading white space', () => {
    expect(split(['  <thinking>hmm</thinking>Answer'])).toEqual({ reasoning: 'hmm', text: 'Answer' })
  })

  it('leaves text alone when the reply does not start with a think block', () => {
    for (const source of ['Hello <think>not reasoning</think> there', '<b>bold</b>', '<', 'plain']) {
      for (const chunks of chunkings(source)) expect(split(chunks)).toEqual({ reasoning: '', text: source })
    }
  })

  it('keeps an unclosed block as reasoning when the reply ends (a cut-off stream)', () => {
    expect(split(['<think>still thinking</thi'])).toEqual({ reasoning: 'still thinking</thi', text: '' })
  })

  it('streams reasoning as it arrives instead of holding it to the end', () => {
    const splitter = createThinkTagSplitter()
    expect(splitter.push('<think>first thoughts')).toEqual({ text: '', reasoning: 'first thoughts' })
    expect(splitter.push(' and more</')).toEqual({ text: '', reasoning: ' and more' })
    expect(splitter.push('think>Done')).toEqual({ text: 'Done', reasoning: '' })
  })
})
