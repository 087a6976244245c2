import { Dexie } from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { addMessage, listMessages } from '~/db/messages'
import { searchMessages } from '~/db/search-messages'

/** The schema as versions 1–4 declared it: what users' browsers hold before the tree. */
function openVersion4(name: string, indexedDB: IDBFactory): Dexie {
  const db = new Dexie(name, { indexedDB, IDBKeyRange })
  db.version(1).stores({ threads: 'id, updatedAt, createdAt', messages: 'id, threadId, [threadId+seq], createdAt, status' })
  db.version(2).stores({ audit: 'id, toolName, status, startedAt, threadId', userTools: 'id, &name, updatedAt' })
  db.version(3).stores({ searchIndex: 'id, *words', searchWords: 'word' })
  db.version(4).stores({ messages: 'id, threadId, [threadId+seq], createdAt, status, toolStatus' })
  return db
}

const message = (threadId: string, seq: number, role: string, content: string, extra: object = {}) =>
  ({ id: `${threadId}-${seq}`, threadId, seq, role, content, status: 'complete', createdAt: seq, updatedAt: seq, ...extra })

let opened: PlugboardDatabase | undefined
afterEach(() => {
  opened?.close()
  setDatabase(undefined)
})

describe('the upgrade from flat chats (v4) to trees (v5)', () => {
  it('keeps every row and links each thread\'s rows in seq order, the last one the active leaf', async () => {
    const indexedDB = new IDBFactory()
    const old = openVersion4('tree-migration', indexedDB)
    await old.open()
    await old.table('threads').bulkAdd([
      { id: 'a', title: 'Weather', createdAt: 1, updatedAt: 9, model: 'demo' },
      { id: 'b', title: 'Sums', createdAt: 2, updatedAt: 8, toolChoices: { calculate: false } },
      { id: 'empty', title: 'New chat', createdAt: 3, updatedAt: 3 },
    ])
    // Written out of order, with a gap in seq (Retry deleted rows): the links follow seq, not insertion.
    await old.table('messages').bulkAdd([
      message('a', 5, 'assistant', 'Sunny in Lisbon'),
      message('a', 1, 'user', 'Weather in Lisbon?'),
      message('a', 2, 'assistant', '', { toolCalls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }),
      message('a', 3, 'tool', '{"sky":"clear"}', { toolCallId: 'c1', toolName: 'get_weather', toolStatus: 'done' }),
      message('b', 1, 'user', 'What is 12*7?'),
      message('b', 2, 'assistant', '84', { status: 'interrupted' }),
    ])
    await old.table('audit').add({ id: 'run1', toolName: 'get_weather', toolCallId: 'c1', threadId: 'a', argumentsAsked: '{}', status: 'done', startedAt: 4 })
    await old.table('userTools').add({ id: 'u1', name: 'shout', description: 'Upper-cases', parameters: '{}', code: 'return 1', createdAt: 1, updatedAt: 1 })
    await old.table('searchIndex').add({ id: 'a-1', words: ['weather', 'lisbon'] })
    await old.table('searchWords').bulkAdd([{ word: 'weather' }, { word: 'lisbon' }])
    old.close()

    opened = new PlugboardDatabase('tree-migration', { indexedDB, IDBKeyRange })
    await opened.open()
    setDatabase(opened)
    expect(opened.verno).toBe(10)

    const rows = await opened.messages.toArray()
    expect(rows).toHaveLength(6)
    const byId = new Map(rows.map(row => [row.id, row]))
    expect(byId.get('a-1')).toMatchObject({ content: 'Weather in Lisbon?', seq: 1, onPath: 1 })
    expect(byId.get('a-1')!.parentId).toBeUndefined()
    expect(byId.get('a-2')).toMatchObject({ parentId: 'a-1', onPath: 1 })
    expect(byId.get('a-3')).toMatchObject({ parentId: 'a-2', toolCallId: 'c1', toolStatus: 'done', onPath: 1 })
    expect(byId.get('a-5')).toMatchObject({ parentId: 'a-3', content: 'Sunny in Lisbon', onPath: 1 })
    expect(byId.get('b-1')!.parentId).toBeUndefined()
    expect(byId.get('b-2')).toMatchObject({ parentId: 'b-1', status: 'interrupted' })

    const threads = await opened.threads.toArray()
    expect(threads.map(thread => [thread.id, thread.activeLeafId])).toEqual([['a', 'a-5'], ['b', 'b-2'], ['empty', undefined]])
    expect(threads.find(thread => thread.id === 'b')).toMatchObject({ title: 'Sums', updatedAt: 8, toolChoices: { calculate: false } })
    expect(await opened.audit.get('run1')).toMatchObject({ toolName: 'get_weather', threadId: 'a' })
    expect(await opened.userTools.where('name').equals('shout').first()).toMatchObject({ code: 'return 1' })
    expect(await opened.searchIndex.count()).toBe(1)
    expect(await opened.searchWords.count()).toBe(2)

    // The migrated chats are ordinary trees: read as the model's history, grown at the leaf, searched.
    expect((await listMessages('a')).map(row => row.id)).toEqual(['a-1', 'a-2', 'a-3', 'a-5'])
    const next = await addMessage({ threadId: 'a', role: 'user', content: 'And tomorrow?', status: 'complete' })
    expect(next).toMatchObject({ seq: 6, parentId: 'a-5', onPath: 1 })
    expect((await searchMessages('lisbon')).map(hit => hit.messageId).sort()).toEqual(['a-1', 'a-5'])
  })
})
