import { afterEach, describe, expect, it, vi } from 'vitest'
import { addMessage, searchMessages } from '~/db/messages'
import { holdSearchIndex } from '~/db/search-index'
import { createThread } from '~/db/threads'
import { useFreshDatabase } from './helpers/fresh-database'

// A sync pull holds the word index's background writes so they do not compete with its pages; nothing is lost by
// it: a search meanwhile still finds every message, and the index is written once the hold ends.

const database = useFreshDatabase('search-index-hold-test')
afterEach(() => {
  vi.useRealTimers()
})

describe('holding the word index', () => {
  it('writes nothing in the background while held, everything once released; a search meanwhile finds all', async () => {
    const thread = await createThread()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const release = holdSearchIndex(database())
    const message = await addMessage({ threadId: thread.id, role: 'user', content: 'The ferry leaves at dawn', status: 'complete' })
    vi.advanceTimersByTime(5_000)
    expect(await database().searchIndex.count()).toBe(0)

    release()
    vi.advanceTimersByTime(5_000)
    vi.useRealTimers()
    await vi.waitFor(async () => expect(await database().searchIndex.get(message.id)).toMatchObject({ words: expect.arrayContaining(['ferry', 'dawn']) }), { timeout: 10_000 })
  })

  it('a search while held writes what is queued and finds it', async () => {
    const thread = await createThread()
    const release = holdSearchIndex(database())
    const message = await addMessage({ threadId: thread.id, role: 'assistant', content: 'Molo Beverello, gate 3', status: 'complete' })
    expect((await searchMessages('beverello')).map(hit => hit.messageId)).toEqual([message.id])
    expect(await database().searchIndex.get(message.id)).toBeDefined()
    release()
  })

  it('marking a message on the active path does not queue it again; changing its text does', async () => {
    const thread = await createThread()
    const message = await addMessage({ threadId: thread.id, role: 'user', content: 'first words', status: 'complete' })
    await searchMessages('first')
    // A marker in its index row shows whether the row was written again.
    await database().searchIndex.put({ id: message.id, words: ['marker'] })
    await database().messages.update(message.id, { onPath: 1 })
    await searchMessages('first')
    expect(await database().searchIndex.get(message.id)).toEqual({ id: message.id, words: ['marker'] })
    await database().messages.update(message.id, { content: 'second words' })
    expect((await searchMessages('second')).map(hit => hit.messageId)).toEqual([message.id])
  })

  it('a database closed with changes still queued drops them without a warning (a page going away, a fresh database per test)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const thread = await createThread()
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      await addMessage({ threadId: thread.id, role: 'user', content: 'queued when the database closes', status: 'complete' })
      database().close()
      vi.advanceTimersByTime(5_000)
      vi.useRealTimers()
      // the flush fails at once on a closed database; a few turns of the event loop let its rejection be handled
      for (let turn = 0; turn < 5; turn++) await new Promise(resolve => setTimeout(resolve, 0))
      expect(warn.mock.calls.filter(call => String(call[0]).includes('search index'))).toEqual([])
    }
    finally {
      warn.mockRestore()
    }
  })
})
