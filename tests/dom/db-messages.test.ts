import { describe, expect, it } from 'vitest'
import {
  addMessage, deleteMessagesAfter, getMessage, listMessages, markInterrupted, searchMessages, titleFromText, updateMessage,
} from '~/db/messages'
import { createThread, getThread, renameThread, touchThread } from '~/db/threads'
import { useFreshDatabase } from './helpers/fresh-database'

const database = useFreshDatabase('messages-test')

describe('addMessage', () => {
  it('gives concurrent messages distinct, increasing positions in call order', async () => {
    const thread = await createThread()
    const rows = await Promise.all(Array.from({ length: 25 }, (_, index) =>
      addMessage({ threadId: thread.id, role: 'user', content: `message ${index}`, status: 'complete' })))
    expect(rows.map(row => row.seq)).toEqual(Array.from({ length: 25 }, (_, index) => index + 1))
    expect((await listMessages(thread.id)).map(row => row.content)).toEqual(rows.map(row => row.content))
  })

  it('numbers each thread on its own', async () => {
    const a = await createThread()
    const b = await createThread()
    await addMessage({ threadId: a.id, role: 'user', content: 'a1', status: 'complete' })
    await addMessage({ threadId: a.id, role: 'user', content: 'a2', status: 'complete' })
    const first = await addMessage({ threadId: b.id, role: 'user', content: 'b1', status: 'complete' })
    expect(first.seq).toBe(1)
  })

  it('moves its thread to the top of the list', async () => {
    const thread = await createThread()
    await touchThread(thread.id, { updatedAt: 5 })
    const row = await addMessage({ threadId: thread.id, role: 'user', content: 'hi', status: 'complete' })
    expect((await getThread(thread.id))?.updatedAt).toBe(row.createdAt)
  })

  it('names a New chat thread after its first user message', async () => {
    const thread = await createThread()
    await addMessage({ threadId: thread.id, role: 'system', content: 'You are terse.', status: 'complete' })
    await addMessage({ threadId: thread.id, role: 'user', content: '\n  What is   the weather\nin Lisbon?', status: 'complete' })
    expect((await getThread(thread.id))?.title).toBe('What is the weather')
    await addMessage({ threadId: thread.id, role: 'user', content: 'And tomorrow?', status: 'complete' })
    expect((await getThread(thread.id))?.title).toBe('What is the weather')
  })

  it('keeps a title the user chose', async () => {
    const thread = await createThread()
    await renameThread(thread.id, 'Holiday')
    await addMessage({ threadId: thread.id, role: 'user', content: 'Where to go?', status: 'complete' })
    expect((await getThread(thread.id))?.title).toBe('Holiday')
  })

  it('does not rename a thread whose first user message was renamed back to New chat', async () => {
    const thread = await createThread()
    await addMessage({ threadId: thread.id, role: 'user', content: 'First question', status: 'complete' })
    await renameThread(thread.id, 'New chat')
    await addMessage({ threadId: thread.id, role: 'user', content: 'Second question', status: 'complete' })
    expect((await getThread(thread.id))?.title).toBe('New chat')
  })

  it('puts a message at the end of the branch shown when the chat\'s active leaf has not arrived from another device yet', async () => {
    const thread = await createThread()
    const question = await addMessage({ threadId: thread.id, role: 'user', content: 'Keep my ferry notes', status: 'complete' })
    const answer = await addMessage({ threadId: thread.id, role: 'assistant', content: 'Kept.', status: 'complete' })
    // sync wrote the chat's record, naming a reply whose row is still on its way
    await database().threads.update(thread.id, { activeLeafId: 'reply-from-the-laptop' })
    const next = await addMessage({ threadId: thread.id, role: 'user', content: 'When does the ferry leave?', status: 'complete' })
    expect(next.parentId).toBe(answer.id)
    expect((await listMessages(thread.id)).map(row => [row.content, row.onPath])).toEqual([[question.content, 1], [answer.content, 1], ['When does the ferry leave?', 1]])
    expect((await getThread(thread.id))?.activeLeafId).toBe(next.id)
    // a parent asked for by name must exist
    await expect(addMessage({ threadId: thread.id, parentId: 'reply-from-the-laptop', role: 'user', content: 'x', status: 'complete' }))
      .rejects.toMatchObject({ name: 'StorageError', operation: 'add message' })
  })

  it('refuses a message for a thread that does not exist', async () => {
    await expect(addMessage({ threadId: 'missing', role: 'user', content: 'x', status: 'complete' }))
      .rejects.toMatchObject({ name: 'StorageError', operation: 'add message' })
    expect(await database().messages.count()).toBe(0)
  })
})

describe('titleFromText', () => {
  it('cuts long titles at a word with an ellipsis', () => {
    const title = titleFromText('Please summarise the following very long article about the history of the printing press in Europe')
    expect(title).toBe('Please summarise the following very long article about the…')
    expect(title.length).toBeLessThanOrEqual(61)
  })
})

describe('updateMessage and deleteMessagesAfter', () => {
  it('updates a message and says whether it existed', async () => {
    const thread = await createThread()
    const row = await addMessage({ threadId: thread.id, role: 'assistant', status: 'streaming' })
    expect(row.content).toBe('')
    expect(await updateMessage(row.id, { content: 'done', status: 'complete' })).toBe(true)
    expect(await getMessage(row.id)).toMatchObject({ content: 'done', status: 'complete', seq: 1 })
    expect(await updateMessage('missing', { content: 'x' })).toBe(false)
  })

  it('deletes only the messages after the given position in that thread', async () => {
    const thread = await createThread()
    const other = await createThread()
    for (const content of ['q', 'a', 'tool', 'a2']) await addMessage({ threadId: thread.id, role: 'user', content, status: 'complete' })
    await addMessage({ threadId: other.id, role: 'user', content: 'other', status: 'complete' })
    expect(await deleteMessagesAfter(thread.id, 1)).toBe(3)
    expect((await listMessages(thread.id)).map(row => row.content)).toEqual(['q'])
    expect(await listMessages(other.id)).toHaveLength(1)
    const next = await addMessage({ threadId: thread.id, role: 'assistant', content: 'again', status: 'complete' })
    expect(next.seq).toBe(2)
  })
})

describe('markInterrupted', () => {
  it('marks replies and tools cut off by a reload, and leaves finished rows alone', async () => {
    const thread = await createThread()
    const user = await addMessage({ threadId: thread.id, role: 'user', content: 'go', status: 'complete' })
    const partial = await addMessage({ threadId: thread.id, role: 'assistant', content: 'Half a rep', status: 'streaming' })
    const running = await addMessage({ threadId: thread.id, role: 'tool', status: 'pending', toolCallId: 'c1', toolName: 'slow', toolStatus: 'running', toolStatusText: 'fetching…' })
    const queuedWithText = await addMessage({ threadId: thread.id, role: 'tool', content: 'partial output', status: 'complete', toolCallId: 'c2', toolName: 'slow', toolStatus: 'queued' })
    const done = await addMessage({ threadId: thread.id, role: 'tool', content: '42', status: 'complete', toolCallId: 'c3', toolName: 'calc', toolStatus: 'done' })
    const waiting = await addMessage({ threadId: thread.id, role: 'assistant', status: 'pending' })

    expect(await markInterrupted({ skipThreadIds: [] })).toBe(4)

    expect(await getMessage(user.id)).toMatchObject({ status: 'complete' })
    expect(await getMessage(partial.id)).toMatchObject({ status: 'interrupted', content: 'Half a rep' })
    const runningAfter = await getMessage(running.id)
    expect(runningAfter).toMatchObject({ status: 'interrupted', toolStatus: 'cancelled', content: 'Cancelled: the page was closed while the tool ran.' })
    expect(runningAfter?.toolStatusText).toBeUndefined()
    expect(await getMessage(queuedWithText.id)).toMatchObject({ status: 'complete', toolStatus: 'cancelled', content: 'partial output' })
    expect(await getMessage(done.id)).toMatchObject({ toolStatus: 'done', content: '42' })
    expect(await getMessage(waiting.id)).toMatchObject({ status: 'interrupted' })
    expect(await markInterrupted({ skipThreadIds: [] })).toBe(0)
  })

  it('leaves alone the threads another tab is answering', async () => {
    const busy = await createThread()
    const idle = await createThread()
    const live = await addMessage({ threadId: busy.id, role: 'assistant', content: 'still going', status: 'streaming' })
    const stale = await addMessage({ threadId: idle.id, role: 'assistant', content: 'cut', status: 'streaming' })
    expect(await markInterrupted({ skipThreadIds: [busy.id] })).toBe(1)
    expect(await getMessage(live.id)).toMatchObject({ status: 'streaming' })
    expect(await getMessage(stale.id)).toMatchObject({ status: 'interrupted' })
  })
})

describe('searchMessages', () => {
  it('finds user and assistant text across other threads, newest first, with thread titles', async () => {
    const current = await createThread()
    const old = await createThread('Old trip')
    const recent = await createThread('Recent trip')
    await addMessage({ threadId: current.id, role: 'user', content: 'Lisbon again', status: 'complete' })
    const oldHit = await addMessage({ threadId: old.id, role: 'user', content: 'Flights to LISBON', status: 'complete' })
    await addMessage({ threadId: old.id, role: 'tool', content: 'lisbon weather: 20C', status: 'complete', toolCallId: 'c', toolName: 'weather', toolStatus: 'done' })
    await addMessage({ threadId: old.id, role: 'system', content: 'lisbon system prompt', status: 'complete' })
    await addMessage({ threadId: recent.id, role: 'user', content: 'Porto', status: 'complete' })
    await database().messages.update(oldHit.id, { createdAt: 1 })
    const recentHit = await addMessage({ threadId: recent.id, role: 'assistant', content: 'Lisbon has trams.', status: 'complete' })

    const hits = await searchMessages('lisbon', { excludeThreadId: current.id })
    expect(hits).toEqual([
      { threadId: recent.id, threadTitle: 'Recent trip', messageId: recentHit.id, role: 'assistant', content: 'Lisbon has trams.', createdAt: recentHit.createdAt },
      { threadId: old.id, threadTitle: 'Old trip', messageId: oldHit.id, role: 'user', content: 'Flights to LISBON', createdAt: 1 },
    ])
  })

  it('returns at most limit hits, ten by default', async () => {
    const thread = await createThread('Many')
    for (let index = 0; index < 12; index++) await addMessage({ threadId: thread.id, role: 'user', content: `note ${index}`, status: 'complete' })
    expect(await searchMessages('note')).toHaveLength(10)
    expect(await searchMessages('note', { limit: 3 })).toHaveLength(3)
  })

  it('returns nothing for a blank query', async () => {
    const thread = await createThread()
    await addMessage({ threadId: thread.id, role: 'user', content: 'anything', status: 'complete' })
    expect(await searchMessages('  ')).toEqual([])
  })
})
