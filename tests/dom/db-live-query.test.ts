import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, shallowRef } from 'vue'
import { useLiveQuery } from '~/composables/useLiveQuery'
import { useThreads } from '~/composables/useThreads'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { addMessage } from '~/db/messages'
import { createThread } from '~/db/threads'
import type { ThreadRecord } from '~/db/types'

const opened: PlugboardDatabase[] = []
function openTab(factory: IDBFactory, name = 'two-tabs'): PlugboardDatabase {
  const db = new PlugboardDatabase(name, { indexedDB: factory, IDBKeyRange })
  opened.push(db)
  return db
}

afterEach(() => {
  for (const db of opened.splice(0)) db.close()
  setDatabase(undefined)
})

describe('useLiveQuery', () => {
  it('shows in one tab what another tab writes to the same database', async () => {
    const factory = new IDBFactory()
    const tabA = openTab(factory)
    const tabB = openTab(factory)
    const scope = effectScope()
    const titles = scope.run(() => useLiveQuery(async () => (await tabB.threads.toArray()).map(thread => thread.title), undefined, [] as string[]))!
    await vi.waitFor(() => expect(titles.value).toEqual([]))

    const now = Date.now()
    await tabA.threads.add({ id: 't1', title: 'Written in tab A', createdAt: now, updatedAt: now })
    await vi.waitFor(() => expect(titles.value).toEqual(['Written in tab A']))
    await tabA.threads.update('t1', { title: 'Renamed in tab A' })
    await vi.waitFor(() => expect(titles.value).toEqual(['Renamed in tab A']))
    scope.stop()
  })

  it('runs the query again when a dependency changes', async () => {
    const db = openTab(new IDBFactory(), 'deps')
    setDatabase(db)
    const first = await createThread('first')
    const second = await createThread('second')
    await addMessage({ threadId: first.id, role: 'user', content: 'in first', status: 'complete' })
    await addMessage({ threadId: second.id, role: 'user', content: 'in second', status: 'complete' })
    const threadId = shallowRef(first.id)
    const scope = effectScope()
    const contents = scope.run(() => useLiveQuery(
      async () => (await db.messages.where('threadId').equals(threadId.value).toArray()).map(row => row.content),
      [threadId],
    ))!
    await vi.waitFor(() => expect(contents.value).toEqual(['in first']))
    threadId.value = second.id
    await nextTick()
    await vi.waitFor(() => expect(contents.value).toEqual(['in second']))
    scope.stop()
  })

  it('stops updating once its scope is disposed', async () => {
    const db = openTab(new IDBFactory(), 'dispose')
    const disposedQuerier = vi.fn(() => db.threads.count())
    const disposed = effectScope()
    const kept = effectScope()
    const stale = disposed.run(() => useLiveQuery(disposedQuerier, undefined, -1))!
    const live = kept.run(() => useLiveQuery(() => db.threads.count(), undefined, -1))!
    await vi.waitFor(() => expect([stale.value, live.value]).toEqual([0, 0]))
    const callsBefore = disposedQuerier.mock.calls.length
    disposed.stop()
    await db.threads.add({ id: 'x', title: 'x', createdAt: 1, updatedAt: 1 })
    await vi.waitFor(() => expect(live.value).toBe(1))
    expect(stale.value).toBe(0)
    expect(disposedQuerier).toHaveBeenCalledTimes(callsBefore)
    kept.stop()
  })
})

describe('useThreads', () => {
  it('lists threads live, most recent first, and filters them by title', async () => {
    const db = openTab(new IDBFactory(), 'use-threads')
    setDatabase(db)
    const scope = effectScope()
    const { threads, filter, filteredThreads, createThread: create, renameThread: rename, deleteThread: remove } = scope.run(() => useThreads())!
    const titles = (list: readonly ThreadRecord[] | undefined) => (list ?? []).map(thread => thread.title)

    const lisbon = await create('Lisbon trip')
    await vi.waitFor(() => expect(titles(threads.value)).toEqual(['Lisbon trip']))
    await addMessage({ threadId: (await create('Taxes')).id, role: 'user', content: 'q', status: 'complete' })
    await vi.waitFor(() => expect(titles(threads.value)).toEqual(['Taxes', 'Lisbon trip']))
    filter.value = 'LISBON'
    expect(titles(filteredThreads.value)).toEqual(['Lisbon trip'])
    await rename(lisbon.id, 'Porto trip')
    await vi.waitFor(() => expect(titles(filteredThreads.value)).toEqual([]))
    await remove(lisbon.id)
    await vi.waitFor(() => expect(titles(threads.value)).toEqual(['Taxes']))
    scope.stop()
  })
})
