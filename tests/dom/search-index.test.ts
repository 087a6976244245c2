import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addMessage, searchMessages, updateMessage } from '~/db/messages'
import { createThread, deleteThread } from '~/db/threads'
import { MAX_WORD_LENGTH, MAX_WORDS_PER_MESSAGE, OVERFLOW_WORD } from '~/db/search-index'
import type { MessageRecord } from '~/db/types'
import { useFreshDatabase } from './helpers/fresh-database'

// search_chat_history reads a word index instead of every row. Its answers must stay those of the full scan it
// replaced: every user or assistant message containing the query (case-insensitive substring), newest first.

const database = useFreshDatabase('search-index-test')

interface Sample { messages: Array<{ content: string }>, calls: Array<{ name: string, arguments: unknown }> }
const samples = JSON.parse(readFileSync(resolve('tests/fixtures/corpora/tool-schemas/bfcl_sample_calls.json'), 'utf8')) as Sample[]

/** The full scan the index replaced, over every stored row. */
async function fullScan(query: string, excludeThreadId?: string): Promise<string[]> {
  const needle = query.trim().toLocaleLowerCase()
  const rows = await database().messages.toArray()
  return rows
    .filter(row => (row.role === 'user' || row.role === 'assistant') && row.threadId !== excludeThreadId && row.content.toLocaleLowerCase().includes(needle))
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map(row => row.id)
}

async function found(query: string, excludeThreadId?: string): Promise<string[]> {
  return (await searchMessages(query, { excludeThreadId, limit: 100_000 })).map(hit => hit.messageId)
}

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
}

/** Real questions (BFCL) as user messages and their calls as assistant text, across 12 chats, plus tool rows. */
async function seedRealChats(count: number): Promise<MessageRecord[]> {
  const threads = await Promise.all(Array.from({ length: 12 }, () => createThread()))
  const stored: MessageRecord[] = []
  for (const [index, sample] of samples.slice(0, count).entries()) {
    const threadId = threads[index % threads.length]!.id
    stored.push(await addMessage({ threadId, role: 'user', content: sample.messages[0]!.content, status: 'complete' }))
    const call = sample.calls[0]
    const answer = call ? `I called \`${call.name}\` with ${JSON.stringify(call.arguments)}.` : 'No call.'
    stored.push(await addMessage({ threadId, role: 'assistant', content: answer, status: 'complete' }))
    if (index % 10 === 0) stored.push(await addMessage({ threadId, role: 'tool', content: answer, toolCallId: `c${index}`, status: 'complete' }))
  }
  return stored
}

describe('search over the word index', () => {
  it('finds exactly what a full scan finds, for words, parts of words and phrases cut anywhere in real messages', async () => {
    const stored = await seedRealChats(300)
    const next = random(7)
    const queries = new Set<string>(['zebra quokka', 'the', 'THE AREA', 'area of a', '?', '", "', '10 units', 'units.', 'a', 'ate'])
    while (queries.size < 200) {
      const text = stored[Math.floor(next() * stored.length)]!.content
      const start = Math.floor(next() * text.length)
      const length = 1 + Math.floor(next() * 30)
      const query = text.slice(start, start + length)
      if (query.trim()) queries.add(next() < 0.3 ? query.toUpperCase() : query)
    }
    let withHits = 0
    for (const query of queries) {
      const expected = await fullScan(query)
      if (expected.length > 0) withHits++
      expect(await found(query), query).toEqual(expected)
    }
    // The queries are not all misses (a broken index would then pass).
    expect(withHits).toBeGreaterThan(140)
    // Leaving a chat out works as before.
    const excluded = stored[0]!.threadId
    expect(await found('the', excluded)).toEqual(await fullScan('the', excluded))
  }, 120_000)

  it('follows messages as they are changed and deleted', async () => {
    const first = await createThread()
    const second = await createThread()
    const reply = await addMessage({ threadId: first.id, role: 'assistant', content: 'Booking a hotel in Lisbon', status: 'streaming' })
    await addMessage({ threadId: second.id, role: 'user', content: 'Lisbon trams are yellow', status: 'complete' })
    expect(await found('lisbon')).toHaveLength(2)

    // A streamed reply's text is rewritten as it grows.
    await updateMessage(reply.id, { content: 'Booking a hotel in Porto instead', status: 'complete' })
    expect(await found('porto')).toEqual([reply.id])
    expect(await found('lisbon')).toEqual(await fullScan('lisbon'))
    expect(await found('lisbon')).toHaveLength(1)

    await deleteThread(second.id)
    expect(await found('lisbon')).toEqual([])
    expect(await database().searchIndex.count()).toBe(await database().messages.count())
  })

  it('finds messages written straight into IndexedDB (an import), which its hooks never saw', async () => {
    const thread = await createThread()
    await addMessage({ threadId: thread.id, role: 'user', content: 'through the app', status: 'complete' })
    const imported: MessageRecord = { id: 'imported-1', threadId: thread.id, seq: 2, role: 'assistant', content: 'An imported answer about Kyoto', status: 'complete', createdAt: 1, updatedAt: 1 }
    const backend = database().backendDB()
    await new Promise<void>((done, fail) => {
      const transaction = backend.transaction('messages', 'readwrite')
      transaction.objectStore('messages').put(imported)
      transaction.oncomplete = () => done()
      transaction.onerror = () => fail(transaction.error)
    })
    expect(await found('kyoto')).toEqual(['imported-1'])
  })

  it('stays bounded, and still finds a message with more words than it indexes or a very long word', async () => {
    const thread = await createThread()
    const manyWords = Array.from({ length: MAX_WORDS_PER_MESSAGE + 50 }, (_, index) => `word${index}`).join(' ')
    const wordy = await addMessage({ threadId: thread.id, role: 'assistant', content: manyWords, status: 'complete' })
    const longWord = `${'x'.repeat(MAX_WORD_LENGTH)}needle${'y'.repeat(20)}`
    const long = await addMessage({ threadId: thread.id, role: 'user', content: `see ${longWord} here`, status: 'complete' })
    await addMessage({ threadId: thread.id, role: 'user', content: 'plain words only', status: 'complete' })
    expect(await found(`word${MAX_WORDS_PER_MESSAGE + 10}`)).toEqual([wordy.id])
    expect(await found('needle')).toEqual([long.id])
    expect(await found('xneedley')).toEqual([long.id])
    const rows = await database().searchIndex.toArray()
    expect(Math.max(...rows.map(row => row.words.length))).toBeLessThanOrEqual(MAX_WORDS_PER_MESSAGE + 1)
    expect(rows.every(row => row.words.every(word => word.length <= MAX_WORD_LENGTH))).toBe(true)
    expect(rows.find(row => row.id === wordy.id)!.words).toEqual([OVERFLOW_WORD])
  })
})

describe('a database from before the search index', () => {
  it('opens as the current version with its chats kept, and the first search finds their messages', async () => {
    const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb')
    const { Dexie } = await import('dexie')
    const { PlugboardDatabase, setDatabase } = await import('~/db/database')
    const indexedDB = new IDBFactory()
    const old = new Dexie('before-index', { indexedDB, IDBKeyRange })
    old.version(1).stores({ threads: 'id, updatedAt, createdAt', messages: 'id, threadId, [threadId+seq], createdAt, status' })
    old.version(2).stores({ audit: 'id, toolName, status, startedAt, threadId', userTools: 'id, &name, updatedAt' })
    await old.table('threads').put({ id: 't-old', title: 'Old chat', createdAt: 1, updatedAt: 1 })
    await old.table('messages').put({ id: 'm-old', threadId: 't-old', seq: 1, role: 'user', content: 'Plans for the Azores trip', status: 'complete', createdAt: 1, updatedAt: 1 })
    old.close()

    const upgraded = new PlugboardDatabase('before-index', { indexedDB, IDBKeyRange })
    setDatabase(upgraded)
    try {
      expect(await found('azores')).toEqual(['m-old'])
      expect(upgraded.verno).toBe(10)
      expect(await upgraded.searchIndex.count()).toBe(1)
    }
    finally {
      upgraded.close()
    }
  })
})
