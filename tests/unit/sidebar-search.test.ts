import { describe, expect, it } from 'vitest'
import type { MessageSearchHit } from '~/db/search-messages'
import { rankMessageResults, snippetAround } from '~/utils/chat/message-list/sidebar-search'

let counter = 0
const hit = (threadId: string, content: string, createdAt: number): MessageSearchHit => ({
  threadId, threadTitle: `Chat ${threadId}`, messageId: `m${++counter}`, role: 'assistant', content, createdAt,
})

describe('the sidebar\'s message results', () => {
  it('ranks the query as whole words first, then the newest', () => {
    const hits = [
      hit('a', 'Tokyoites love trains', 30),
      hit('b', 'It is 9 pm in Tokyo now', 10),
      hit('c', 'Flights to Tokyo, Japan', 20),
    ]
    expect(rankMessageResults(hits, 'tokyo').map(result => result.threadId)).toEqual(['c', 'b', 'a'])
  })

  it('leaves out chats already listed by their title, and keeps at most three messages per chat', () => {
    const hits = [1, 2, 3, 4].map(n => hit('long', `Tokyo ${n}`, n)).concat(hit('titled', 'Tokyo', 9))
    const results = rankMessageResults(hits, 'Tokyo', new Set(['titled']))
    expect(results.map(result => result.snippet.after)).toEqual([' 4', ' 3', ' 2'])
  })

  it('returns nothing for an empty query', () => {
    expect(rankMessageResults([hit('a', 'x', 1)], '  ')).toEqual([])
  })
})

describe('a result\'s snippet', () => {
  it('shows the match with its own case between the words around it, on one line', () => {
    expect(snippetAround('What time is it\nin TOKYO right now?', 'tokyo')).toEqual({ before: 'What time is it in ', match: 'TOKYO', after: ' right now?' })
  })

  it('cuts long text at word edges with an ellipsis on the side that was cut', () => {
    const content = `${'alpha beta gamma '.repeat(10)}Tokyo${' delta epsilon zeta'.repeat(10)}`
    const snippet = snippetAround(content, 'tokyo', 20)
    expect(snippet.match).toBe('Tokyo')
    expect(snippet.before.startsWith('…')).toBe(true)
    expect(snippet.before.length).toBeLessThanOrEqual(21)
    expect(snippet.after.endsWith('…')).toBe(true)
    expect(snippet.after.length).toBeLessThanOrEqual(21)
  })

  it('shows the start of the text when the query is not in it', () => {
    expect(snippetAround('short text', 'zzz')).toEqual({ before: '', match: '', after: 'short text' })
  })
})
