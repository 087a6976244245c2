import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MessageRecord } from '~/db/types'
import { splitMarkdownBlocks } from '~/utils/chat/markdown/markdown-blocks'
import { isMarkdownCached, renderMarkdownCached } from '~/utils/chat/markdown/markdown-cache'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { prerenderMarkdown } from '~/utils/chat/markdown/markdown-prerender'

// Older turns paged into a long chat are rendered in idle time, so scrolling up mounts them from the cache instead
// of parsing and sanitising a dozen replies in the scroll's task.

/** The browser's idle periods, run by the test one at a time; each allows `blocksPerPeriod` checks of time left. */
function idlePeriods(blocksPerPeriod: number) {
  // The page's clock stands still: only the idle deadline says when a period is over.
  vi.useFakeTimers({ toFake: ['performance'] })
  const queue: IdleRequestCallback[] = []
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => queue.push(callback))
  vi.stubGlobal('cancelIdleCallback', () => queue.splice(0))
  return {
    /** Runs the waiting idle callback; false when nothing waited. */
    runOne() {
      const callback = queue.shift()
      if (!callback) return false
      let checks = 0
      callback({ didTimeout: false, timeRemaining: () => (checks++ < blocksPerPeriod ? 5 : 0) })
      return true
    },
  }
}

let unique = 0
function chat(replies: number): MessageRecord[] {
  const tag = `${Date.now()}-${unique++}`
  const rows: MessageRecord[] = []
  const add = (fields: Partial<MessageRecord>) => rows.push({ id: `${tag}-${rows.length}`, threadId: tag, seq: rows.length + 1, role: 'assistant', content: '', status: 'complete', createdAt: 1, updatedAt: 1, ...fields })
  for (let turn = 0; turn < replies; turn++) {
    add({ role: 'user', content: `Question ${tag} ${turn}: **not markdown here**` })
    add({ content: `Answer ${tag} ${turn} with *emphasis*.\n\n- one ${tag} ${turn}\n- two\n\n\`\`\`ts\nconst x = '${tag} ${turn}'\n\`\`\`` })
  }
  return rows
}
const blocksOf = (row: MessageRecord) => splitMarkdownBlocks(row.content)

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('prerenderMarkdown', () => {
  it('renders every block of the finished replies in idle time, newest first, as the list would render them', () => {
    const periods = idlePeriods(1000)
    const rows = chat(5)
    const streaming = { ...rows.at(-1)!, id: 'live', content: `A reply still ${unique} arriving`, status: 'streaming' as const }
    const prerender = prerenderMarkdown([...rows, streaming])
    const replies = rows.filter(row => row.role === 'assistant')
    expect(replies.flatMap(blocksOf).some(isMarkdownCached)).toBe(false)
    periods.runOne()
    for (const block of replies.flatMap(blocksOf)) {
      expect(isMarkdownCached(block)).toBe(true)
      expect(renderMarkdownCached(block)).toBe(renderMarkdown(block))
    }
    // The user's own text is not markdown here, and a reply still arriving is rendered by its own component.
    expect(isMarkdownCached(rows[0]!.content)).toBe(false)
    expect(blocksOf(streaming).some(isMarkdownCached)).toBe(false)
    expect(periods.runOne()).toBe(false)
    prerender.cancel()
  })

  it('stops when an idle period has no time left and goes on in the next, newest replies first', () => {
    const periods = idlePeriods(2)
    const rows = chat(4)
    const replies = rows.filter(row => row.role === 'assistant').reverse()
    const blocks = replies.flatMap(blocksOf)
    prerenderMarkdown(rows)
    const cachedAfter: number[] = []
    while (periods.runOne()) cachedAfter.push(blocks.filter(isMarkdownCached).length)
    // Two blocks per period, in order from the newest reply.
    const expected = Array.from({ length: Math.ceil(blocks.length / 2) }, (_, index) => Math.min(blocks.length, 2 * (index + 1)))
    // (one more period may find there is nothing left)
    expect(cachedAfter.slice(0, expected.length)).toEqual(expected)
    expect(cachedAfter.length).toBeLessThanOrEqual(expected.length + 1)
    expect(blocks.slice(0, 2).every(isMarkdownCached)).toBe(true)
  })

  it('does nothing more once cancelled (the user left the chat)', () => {
    const periods = idlePeriods(2)
    const rows = chat(3)
    const prerender = prerenderMarkdown(rows)
    periods.runOne()
    prerender.cancel()
    expect(periods.runOne()).toBe(false)
    const blocks = rows.filter(row => row.role === 'assistant').flatMap(blocksOf)
    expect(blocks.filter(isMarkdownCached)).toHaveLength(2)
  })
})
