import { describe, expect, it } from 'vitest'
import { createThread, getThread, listThreads, renameThread, setGeneratedTitle, setThreadPinned, touchThread } from '~/db/threads'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('thread-pins-titles-test')

describe('pinned chats', () => {
  it('stores when a chat was pinned, keeps its place by activity, and forgets it when unpinned', async () => {
    const thread = await createThread('Keep me')
    await touchThread(thread.id, { updatedAt: 1_000 })
    await setThreadPinned(thread.id, true)
    const pinned = await getThread(thread.id)
    expect(pinned?.pinned).toBeGreaterThan(0)
    expect(pinned?.updatedAt).toBe(1_000)
    await setThreadPinned(thread.id, false)
    expect(await getThread(thread.id)).not.toHaveProperty('pinned')
    expect((await listThreads()).map(item => item.id)).toEqual([thread.id])
  })

  it('fails to pin a chat that does not exist', async () => {
    await expect(setThreadPinned('missing', true)).rejects.toMatchObject({ name: 'StorageError', operation: 'pin thread' })
  })
})

describe('a title the model writes', () => {
  it('replaces the title cut from the first message', async () => {
    const thread = await createThread('What time is it in Tokyo right now and what…')
    expect(await setGeneratedTitle(thread.id, '  Tokyo time  ')).toBe(true)
    expect((await getThread(thread.id))?.title).toBe('Tokyo time')
  })

  it('never replaces a title the user gave, nor writes to a deleted chat or an empty title', async () => {
    const thread = await createThread()
    await renameThread(thread.id, 'My own name')
    expect(await setGeneratedTitle(thread.id, 'Model title')).toBe(false)
    expect((await getThread(thread.id))?.title).toBe('My own name')
    expect(await setGeneratedTitle('missing', 'Model title')).toBe(false)
    const other = await createThread('first words')
    expect(await setGeneratedTitle(other.id, '   ')).toBe(false)
    expect((await getThread(other.id))?.title).toBe('first words')
  })
})
