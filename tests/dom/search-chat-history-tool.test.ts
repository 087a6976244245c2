import { describe, expect, it } from 'vitest'
import { addMessage } from '~/db/messages'
import { createThread } from '~/db/threads'
import searchChatHistory from '~~/plugins/search-chat-history'
import { useFreshDatabase } from './helpers/fresh-database'

const context = (threadId: string) => ({ signal: new AbortController().signal, threadId, callId: 'call_1', status: () => {}, settings: {} })

useFreshDatabase('search-tool-test')

describe('the search_chat_history tool', () => {
  it('is offered only when another thread has messages', async () => {
    const current = await createThread()
    const available = searchChatHistory.definition.available!
    expect(await available({ threadId: current.id })).toBe(false)
    await addMessage({ threadId: current.id, role: 'user', content: 'hello', status: 'complete' })
    expect(await available({ threadId: current.id })).toBe(false)
    const earlier = await createThread()
    await addMessage({ threadId: earlier.id, role: 'user', content: 'Book a Lisbon hotel', status: 'complete' })
    expect(await available({ threadId: current.id })).toBe(true)
  })

  it('finds matching messages of earlier threads, with their thread title, and never the current thread', async () => {
    const earlier = await createThread()
    await addMessage({ threadId: earlier.id, role: 'user', content: 'Find me a Lisbon hotel near the river', status: 'complete' })
    const current = await createThread()
    await addMessage({ threadId: current.id, role: 'user', content: 'What did I say about Lisbon?', status: 'complete' })

    const result = await searchChatHistory.handler({ query: 'lisbon' }, context(current.id)) as Array<{ thread: string, excerpt: string }>
    expect(result).toHaveLength(1)
    expect(result[0]!.excerpt).toContain('Lisbon hotel near the river')
    expect(result[0]!.thread).toBe('Find me a Lisbon hotel near the river')
  })

  it('says so when nothing matches, and refuses an empty query', async () => {
    const current = await createThread()
    expect(await searchChatHistory.handler({ query: 'zebra' }, context(current.id))).toBe('No earlier message matches "zebra".')
    await expect(async () => searchChatHistory.handler({ query: '  ' }, context(current.id))).rejects.toThrow('The query is empty.')
  })
})
