import { Dexie } from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { markInterrupted, TOOL_CLOSED_RESULT } from '~/db/mark-interrupted'
import type { MessageRecord, ServerJobRecord, ThreadRecord } from '~/db/types'

// Start-up marks what the last reload cut off. It must find those rows in databases written by every earlier
// schema version, and find them without reading the whole message table (12,000 rows made start-up a long task).

const SCHEMAS: Array<Record<string, string>> = [
  { threads: 'id, updatedAt, createdAt', messages: 'id, threadId, [threadId+seq], createdAt, status' },
  { audit: 'id, toolName, status, startedAt, threadId', userTools: 'id, &name, updatedAt' },
  { searchIndex: 'id, *words', searchWords: 'word' },
]

let opened: Dexie[] = []
afterEach(() => {
  for (const db of opened) db.close()
  opened = []
  setDatabase(undefined)
})

const row = (id: string, threadId: string, seq: number, fields: Partial<MessageRecord>): MessageRecord => ({
  id, threadId, seq, role: 'assistant', content: '', status: 'complete', createdAt: seq, updatedAt: seq, ...fields,
})

/** A chat cut off by a reload, a chat still running on the server, and `finished` finished rows. */
function storedChats(finished: number): { threads: ThreadRecord[], jobs: ServerJobRecord[], messages: MessageRecord[] } {
  const messages: MessageRecord[] = []
  for (let seq = 1; seq <= finished; seq++) messages.push(row(`old-${seq}`, 't-old', seq, { role: seq % 2 ? 'user' : 'assistant', content: `message ${seq}` }))
  messages.push(
    row('cut-reply', 't-cut', 1, { content: 'Half a rep', status: 'streaming' }),
    // Finished as a message, yet its tool never reported: only the tool's own status says so.
    row('cut-tool', 't-cut', 2, { role: 'tool', toolCallId: 'c1', toolName: 'slow', toolStatus: 'running', toolStatusText: 'fetching…' }),
    row('cut-queued', 't-cut', 3, { role: 'tool', content: 'partial output', toolCallId: 'c2', toolName: 'slow', toolStatus: 'queued' }),
    row('asking', 't-cut', 4, { role: 'tool', status: 'pending', toolCallId: 'c3', toolName: 'send_mail', toolStatus: 'awaiting-approval' }),
    row('server-reply', 't-server', 1, { content: 'The server writes on', status: 'streaming' }),
    row('server-tool', 't-server', 2, { role: 'tool', status: 'pending', toolCallId: 'c4', toolName: 'fetch_web_page', toolStatus: 'running' }),
  )
  const threads: ThreadRecord[] = [
    { id: 't-old', title: 'Old', createdAt: 1, updatedAt: 1 },
    { id: 't-cut', title: 'Cut', createdAt: 1, updatedAt: 1 },
    { id: 't-server', title: 'On the server', createdAt: 1, updatedAt: 1 },
  ]
  return { threads, jobs: [{ threadId: 't-server', id: 'job-1', lastEventId: 7 }], messages }
}

async function expectMarked(db: PlugboardDatabase) {
  expect(await db.messages.get('cut-reply')).toMatchObject({ status: 'interrupted', content: 'Half a rep' })
  const tool = await db.messages.get('cut-tool')
  expect(tool).toMatchObject({ status: 'complete', toolStatus: 'cancelled', content: TOOL_CLOSED_RESULT })
  expect(tool?.toolStatusText).toBeUndefined()
  expect(await db.messages.get('cut-queued')).toMatchObject({ toolStatus: 'cancelled', content: 'partial output' })
  expect(await db.messages.get('asking')).toMatchObject({ status: 'pending', toolStatus: 'awaiting-approval' })
  expect(await db.messages.get('server-reply')).toMatchObject({ status: 'streaming' })
  expect(await db.messages.get('server-tool')).toMatchObject({ toolStatus: 'running' })
}

describe('markInterrupted on a database written by an earlier version', () => {
  for (const version of [1, 2, 3]) {
    it(`upgrades version ${version} to 10 with every row kept, then marks what the reload cut off`, async () => {
      const indexedDB = new IDBFactory()
      const old = new Dexie(`v${version}`, { indexedDB, IDBKeyRange })
      for (let number = 1; number <= version; number++) old.version(number).stores(SCHEMAS[number - 1]!)
      const { threads, jobs, messages } = storedChats(50)
      // Before version 10 the job a chat followed was a field of its thread row.
      await old.table('threads').bulkPut(threads.map(thread => ({ ...thread, ...(thread.id === 't-server' && { serverJob: { id: 'job-1', lastEventId: 7 } }) })))
      await old.table('messages').bulkPut(messages)
      old.close()

      const db = new PlugboardDatabase(`v${version}`, { indexedDB, IDBKeyRange })
      opened.push(db)
      setDatabase(db)
      await db.open()
      expect(db.verno).toBe(10)
      expect(await db.messages.count()).toBe(messages.length)
      expect(await db.serverJobs.toArray()).toEqual(jobs)
      expect(await db.threads.get('t-server')).not.toHaveProperty('serverJob')
      expect(await db.messages.where('toolStatus').equals('running').primaryKeys()).toEqual(expect.arrayContaining(['cut-tool', 'server-tool']))

      expect(await markInterrupted({ skipThreadIds: [] })).toBe(3)
      await expectMarked(db)
      // Kept field for field; the upgrade to trees only adds its parent link and path mark.
      expect(await db.messages.get('old-7')).toMatchObject(messages[6]!)
      expect(await markInterrupted({ skipThreadIds: [] })).toBe(0)
    })
  }
})

describe('markInterrupted at start-up', () => {
  it('reads only the rows that can be unfinished, not every stored message', async () => {
    const db = new PlugboardDatabase('many', { indexedDB: new IDBFactory(), IDBKeyRange })
    opened.push(db)
    let rowsRead = 0
    // Counts every message row IndexedDB hands to Dexie, whatever way it is read (get, query, cursor).
    db.use({
      stack: 'dbcore',
      name: 'count-message-reads',
      create: down => ({
        ...down,
        table: (name) => {
          const table = down.table(name)
          if (name !== 'messages') return table
          return {
            ...table,
            get: async (request) => {
              const value = await table.get(request)
              if (value) rowsRead++
              return value
            },
            getMany: async (request) => {
              const values = await table.getMany(request)
              rowsRead += values.filter(Boolean).length
              return values
            },
            query: async (request) => {
              const result = await table.query(request)
              if (request.values) rowsRead += result.result.length
              return result
            },
            openCursor: async (request) => {
              const cursor = await table.openCursor(request)
              if (!cursor) return cursor
              const start = cursor.start.bind(cursor)
              cursor.start = (onNext) => start(() => {
                rowsRead++
                onNext()
              })
              return cursor
            },
          }
        },
      }),
    })
    setDatabase(db)
    const { threads, jobs, messages } = storedChats(5_000)
    await db.threads.bulkPut(threads)
    await db.serverJobs.bulkPut(jobs)
    await db.messages.bulkPut(messages)
    rowsRead = 0

    expect(await markInterrupted({ skipThreadIds: [] })).toBe(3)
    await expectMarked(db)
    // The six unfinished rows (found, then changed) and the checks above: far from the 5,000 finished ones.
    expect(rowsRead).toBeLessThan(40)
  })

  it('leaves alone a thread another tab is answering, and marks it once that tab is gone', async () => {
    const db = new PlugboardDatabase('busy', { indexedDB: new IDBFactory(), IDBKeyRange })
    opened.push(db)
    setDatabase(db)
    const { threads, jobs, messages } = storedChats(3)
    await db.threads.bulkPut(threads)
    await db.serverJobs.bulkPut(jobs)
    await db.messages.bulkPut(messages)
    expect(await markInterrupted({ skipThreadIds: ['t-cut'] })).toBe(0)
    expect(await db.messages.get('cut-reply')).toMatchObject({ status: 'streaming' })
    expect(await markInterrupted({ skipThreadIds: [] })).toBe(3)
    await expectMarked(db)
  })
})
