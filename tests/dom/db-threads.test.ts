import { describe, expect, it } from 'vitest'
import { addMessage, listMessages } from '~/db/messages'
import {
  countThreadsWithMessages, createThread, deleteThread, filterThreads, getThread, listThreads, renameThread, touchThread,
} from '~/db/threads'
import type { ThreadRecord } from '~/db/types'
import { getServerJob, setServerJob, threadsWithServerJobs } from '~/db/server-jobs'
import { useFreshDatabase } from './helpers/fresh-database'

const database = useFreshDatabase('threads-test')

describe('threads', () => {
  it('declares the version 10 schema with the indexes the queries use', async () => {
    await database().open()
    expect(database().verno).toBe(10)
    expect(database().attachments.schema.indexes.map(index => index.name).sort()).toEqual(['[threadId+kind]', 'messageId', 'threadId'])
    expect(database().presets.schema.indexes.map(index => index.name)).toEqual(['updatedAt'])
    expect(database().threads.schema.primKey.name).toBe('id')
    expect(database().threads.schema.indexes.map(index => index.name).sort()).toEqual(['createdAt', 'updatedAt'])
    expect(database().messages.schema.indexes.map(index => index.name).sort()).toEqual(['[threadId+onPath+seq]', '[threadId+seq]', 'createdAt', 'parentId', 'status', 'threadId', 'toolStatus'])
    expect(database().audit.schema.indexes.map(index => index.name).sort()).toEqual(['startedAt', 'status', 'threadId', 'toolName'])
    expect(database().userTools.schema.indexes.map(index => index.name)).toContain('name')
    expect(database().searchIndex.schema.indexes.map(index => [index.name, index.multi])).toEqual([['words', true]])
    expect(database().searchWords.schema.primKey.name).toBe('word')
    expect(database().syncOutbox.schema.indexes.map(index => index.name)).toEqual(['hlc'])
    expect(database().syncState.schema.primKey.name).toBe('key')
    expect(database().serverJobs.schema.primKey.name).toBe('threadId')
  })

  it('creates a thread called New chat by default', async () => {
    const thread = await createThread()
    expect(thread.title).toBe('New chat')
    expect(await getThread(thread.id)).toEqual(thread)
  })

  it('lists threads with the most recently active first', async () => {
    const first = await createThread('first')
    const second = await createThread('second')
    await touchThread(second.id, { updatedAt: 1000 })
    await touchThread(first.id, { updatedAt: 2000 })
    expect((await listThreads()).map(thread => thread.title)).toEqual(['first', 'second'])
    await touchThread(second.id)
    expect((await listThreads()).map(thread => thread.title)).toEqual(['second', 'first'])
  })

  it('renames with the title trimmed and refuses an empty title', async () => {
    const thread = await createThread()
    await renameThread(thread.id, '  Trip to Lisbon  ')
    expect((await getThread(thread.id))?.title).toBe('Trip to Lisbon')
    await expect(renameThread(thread.id, '   ')).rejects.toThrow(RangeError)
    expect((await getThread(thread.id))?.title).toBe('Trip to Lisbon')
  })

  it('fails to rename a thread that does not exist', async () => {
    await expect(renameThread('missing', 'x')).rejects.toMatchObject({ name: 'StorageError', operation: 'rename thread' })
  })

  it('deletes a thread together with its messages and leaves other threads alone', async () => {
    const doomed = await createThread()
    const kept = await createThread()
    await addMessage({ threadId: doomed.id, role: 'user', content: 'bye', status: 'complete' })
    await addMessage({ threadId: doomed.id, role: 'assistant', content: 'ok', status: 'complete' })
    await addMessage({ threadId: kept.id, role: 'user', content: 'stay', status: 'complete' })
    await deleteThread(doomed.id)
    expect(await getThread(doomed.id)).toBeUndefined()
    expect(await listMessages(doomed.id)).toEqual([])
    expect(await database().messages.where('threadId').equals(doomed.id).count()).toBe(0)
    expect((await listMessages(kept.id)).map(message => message.content)).toEqual(['stay'])
  })

  it('forgets the server job a deleted chat followed, and stores none for it afterwards', async () => {
    const doomed = await createThread()
    const kept = await createThread()
    await setServerJob(doomed.id, { id: 'job-1', lastEventId: 3 })
    await setServerJob(kept.id, { id: 'job-2', lastEventId: 5, step: 2 })
    await deleteThread(doomed.id)
    expect(await getServerJob(doomed.id)).toBeUndefined()
    // the tab that deleted the chat leaves it, and its last checkpoint comes after the delete
    await setServerJob(doomed.id, { id: 'job-1', lastEventId: 9 })
    expect(await database().serverJobs.count()).toBe(1)
    expect(await getServerJob(kept.id)).toEqual({ id: 'job-2', lastEventId: 5, step: 2 })
    expect(await threadsWithServerJobs([doomed.id, kept.id])).toEqual(new Set([kept.id]))
  })

  it('counts the threads that hold messages, leaving out the given one', async () => {
    const empty = await createThread()
    const one = await createThread()
    const two = await createThread()
    await addMessage({ threadId: one.id, role: 'user', content: 'a', status: 'complete' })
    await addMessage({ threadId: one.id, role: 'user', content: 'b', status: 'complete' })
    await addMessage({ threadId: two.id, role: 'user', content: 'c', status: 'complete' })
    expect(await countThreadsWithMessages()).toBe(2)
    expect(await countThreadsWithMessages(one.id)).toBe(1)
    expect(await countThreadsWithMessages(empty.id)).toBe(2)
  })
})

describe('filterThreads', () => {
  const threads = ['Trip to Lisbon', 'Tax return', 'lisbon restaurants'].map((title, index): ThreadRecord =>
    ({ id: String(index), title, createdAt: index, updatedAt: index }))

  it('keeps titles containing the query, ignoring case', () => {
    expect(filterThreads(threads, 'LISBON').map(thread => thread.title)).toEqual(['Trip to Lisbon', 'lisbon restaurants'])
  })

  it('returns every thread for an empty or blank query', () => {
    expect(filterThreads(threads, '  ')).toEqual(threads)
  })

  it('returns nothing when no title matches', () => {
    expect(filterThreads(threads, 'paris')).toEqual([])
  })
})
