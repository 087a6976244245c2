import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useStorageStatus } from '~/composables/useStorageStatus'
import { getDatabase, openDatabase, PlugboardDatabase, setDatabase } from '~/db/database'
import { addMessage, listMessages } from '~/db/messages'
import { startDatabase } from '~/db/start-database'
import { storageStatus } from '~/db/storage-status'
import { createThread, listThreads } from '~/db/threads'

const original = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB')

beforeEach(() => {
  setDatabase(undefined)
  storageStatus.value = { persistent: true }
})

afterEach(() => {
  if (original) Object.defineProperty(globalThis, 'indexedDB', original)
  getDatabase().close()
  setDatabase(undefined)
})

describe('openDatabase', () => {
  it('keeps chats in memory and says why when IndexedDB is missing', async () => {
    // @ts-expect-error the point of the test: a browser without IndexedDB
    delete globalThis.indexedDB
    expect(globalThis.indexedDB).toBeUndefined()

    const db = await openDatabase({ name: 'fallback-missing' })
    expect(getDatabase()).toBe(db)
    expect(storageStatus.value).toEqual({ persistent: false, reason: 'IndexedDB is not available in this browser' })
    const { persistent, warning } = useStorageStatus()
    expect(persistent.value).toBe(false)
    expect(warning.value).toBe('Chats are kept in memory only (IndexedDB is not available in this browser): they will be lost when you close the tab.')

    const thread = await createThread()
    await addMessage({ threadId: thread.id, role: 'user', content: 'Still works', status: 'complete' })
    expect((await listThreads()).map(row => row.title)).toEqual(['Still works'])
    expect((await listMessages(thread.id)).map(row => row.content)).toEqual(['Still works'])
  })

  it('falls back to memory when IndexedDB refuses to open, as in private mode', async () => {
    const factory = new IDBFactory()
    factory.open = () => { throw new DOMException('The operation is insecure.', 'SecurityError') }
    await openDatabase({ name: 'fallback-security', indexedDB: factory, IDBKeyRange })
    expect(storageStatus.value).toEqual({ persistent: false, reason: 'the browser does not allow storage on this page' })
    const thread = await createThread('kept in memory')
    expect((await listThreads()).map(row => row.id)).toEqual([thread.id])
  })

  it('falls back to memory when another tab blocks the database for too long', async () => {
    const factory = new IDBFactory()
    // An upgrade blocked by another tab looks like this from here: the open request never answers.
    factory.open = () => ({}) as IDBOpenDBRequest
    await openDatabase({ name: 'fallback-blocked', indexedDB: factory, IDBKeyRange, openTimeoutMs: 20 })
    expect(storageStatus.value).toEqual({ persistent: false, reason: 'the database is blocked by another tab' })
    expect(await createThread('usable')).toMatchObject({ title: 'usable' })
  })

  it('uses IndexedDB and reports persistent storage when it opens', async () => {
    const db = await openDatabase({ name: 'persistent', indexedDB: new IDBFactory(), IDBKeyRange })
    expect(storageStatus.value).toEqual({ persistent: true })
    expect(useStorageStatus().warning.value).toBeUndefined()
    expect(getDatabase()).toBe(db)
    expect(await openDatabase()).toBe(db)
  })

  it('marks the reply cut off by the last reload when the app starts', async () => {
    const factory = new IDBFactory()
    const before = new PlugboardDatabase('restart', { indexedDB: factory, IDBKeyRange })
    setDatabase(before)
    const thread = await createThread()
    const reply = await addMessage({ threadId: thread.id, role: 'assistant', content: 'Half', status: 'streaming' })
    before.close()
    setDatabase(undefined)

    await startDatabase({ name: 'restart', indexedDB: factory, IDBKeyRange })
    expect((await listMessages(thread.id)).find(row => row.id === reply.id)).toMatchObject({ content: 'Half', status: 'interrupted' })
  })
})
