import { describe, expect, it } from 'vitest'
import { MAX_PAGE_CHARS, pageToolResult } from '../../shared/tools/page-tool-result'
import { createReadToolResultTool } from '../../shared/tools/read-tool-result-tool'
import { truncateToolOutput } from '../../shared/tools/tool-output'

/** 100 KB of varied text with astral characters, so a page boundary may fall inside a surrogate pair. */
const original = Array.from({ length: 100 * 1024 / 8 }, (_, index) => `${index % 7 === 0 ? '😀' : 'ab'}${index}|`).join('').slice(0, 100 * 1024)

const context = { signal: new AbortController().signal, threadId: 't1', callId: 'r1', status: () => {}, settings: {} }

describe('read_tool_result paging', () => {
  it('gives back a 100 KB result exactly when its pages are joined in order', () => {
    let text = ''
    let offset: number | null = 0
    let pages = 0
    while (offset !== null) {
      const page = pageToolResult(original, offset, 4_999)
      expect(page.text.length).toBeLessThanOrEqual(4_999)
      text += page.text
      offset = page.nextOffset
      pages++
    }
    expect(text).toBe(original)
    expect(original.length).toBeGreaterThan(90_000)
    expect(pages).toBeGreaterThan(15)
  })

  it('caps the page length and reports where the next page starts', () => {
    const page = pageToolResult(original, 10, 10_000_000)
    expect(page.text).toHaveLength(MAX_PAGE_CHARS)
    expect(page).toMatchObject({ offset: 10, total: original.length, nextOffset: 10 + MAX_PAGE_CHARS })
    expect(pageToolResult('abcdef', 4, 0)).toMatchObject({ text: 'e', nextOffset: 5 })
    expect(pageToolResult('abcdef', 4, 10)).toMatchObject({ text: 'ef', nextOffset: null })
  })

  it('refuses offsets past the end or negative, naming the valid range', () => {
    expect(() => pageToolResult('abcdef', 6)).toThrow('offset 6 is past the end: the result has 6 characters (offsets 0–5).')
    expect(() => pageToolResult('abcdef', -1)).toThrow(RangeError)
    expect(() => pageToolResult('abcdef', 1.5)).toThrow(RangeError)
  })

  it('tells the model the call id is unknown in this chat', async () => {
    const tool = createReadToolResultTool(async (callId, threadId) => (callId === 'c1' && threadId === 't1' ? original : undefined))
    await expect(Promise.resolve(tool.handler({ call_id: 'nope', offset: 0 }, context))).rejects.toThrow('No cut tool result with call_id "nope" in this chat.')
    await expect(Promise.resolve(tool.handler({ call_id: 'c1', offset: 0, length: 3 }, context))).resolves.toMatchObject({ text: original.slice(0, 3), nextOffset: 3 })
  })

  it('points a cut result at read_tool_result with its call id and the next offset', () => {
    expect(truncateToolOutput('abcdef', 4, 'call_9').content)
      .toBe('abcd\n\n[Result truncated: showing the first 4 of 6 characters.]\n[Call read_tool_result with call_id "call_9" and offset 4 to read the rest.]')
  })
})
