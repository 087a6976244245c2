import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { createHlcClock } from '#shared/sync/hlc'
import type { SyncedChange } from '#shared/sync/sync-record'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { listMessages } from '~/db/messages'
import { applyRemoteChanges } from '~/db/sync/apply-remote-changes'

// A new device receives a large account page by page: a chat's messages can arrive in several pages, and its thread
// before or after them. Whatever the cut, the device shows each chat's active branch, every message kept.

const clock = createHlcClock('laptop')
let seq = 0
const change = (kind: SyncedChange['kind'], body: Record<string, unknown>): SyncedChange => ({ kind, id: String(body.id), hlc: clock.now(), deleted: false, body, seq: ++seq })

/** A chat of `length` messages in one line, plus an older branch off its second message; the thread's change last. */
function chat(threadId: string, length: number): SyncedChange[] {
  const changes: SyncedChange[] = []
  let parentId: string | undefined
  for (let index = 0; index < length; index++) {
    const id = `${threadId}-m${index}`
    changes.push(change('message', { id, threadId, seq: index + 1, ...(parentId ? { parentId } : {}), role: index % 2 ? 'assistant' : 'user', content: `${threadId} message ${index}`, status: 'complete', createdAt: index }))
    parentId = id
  }
  changes.push(change('message', { id: `${threadId}-old`, threadId, seq: length + 1, parentId: `${threadId}-m1`, role: 'user', content: `${threadId} old branch`, status: 'complete', createdAt: length }))
  changes.push(change('thread', { id: threadId, title: threadId, createdAt: 0, updatedAt: 0, activeLeafId: parentId }))
  return changes
}

const opened: PlugboardDatabase[] = []
function device(name: string): PlugboardDatabase {
  const db = new PlugboardDatabase(name, { indexedDB: new IDBFactory(), IDBKeyRange })
  opened.push(db)
  setDatabase(db)
  return db
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
  setDatabase(undefined)
})

async function applyInPages(db: PlugboardDatabase, changes: SyncedChange[], pageSize: number) {
  for (let offset = 0; offset < changes.length; offset += pageSize) {
    const page = changes.slice(offset, offset + pageSize)
    await applyRemoteChanges(db, page, page.at(-1)!.seq)
  }
}

const contents = async (threadId: string) => (await listMessages(threadId)).map(row => row.content)
const line = (threadId: string, length: number) => Array.from({ length }, (_, index) => `${threadId} message ${index}`)

describe('a new device pulling an account in pages', () => {
  it.each([1, 7, 40, 1000])('shows every chat\'s active branch with pages of %i changes', async (pageSize) => {
    const db = device(`pages-${pageSize}`)
    await applyInPages(db, [...chat('alpha', 30), ...chat('beta', 12)], pageSize)
    expect(await contents('alpha')).toEqual(line('alpha', 30))
    expect(await contents('beta')).toEqual(line('beta', 12))
    expect(await db.messages.count()).toBe(44)
    expect(await db.messages.where('[threadId+onPath+seq]').between(['alpha', 1, 0], ['alpha', 1, Infinity]).count()).toBe(30)
    expect(await db.syncState.get('cursor')).toEqual({ key: 'cursor', value: seq })
  })

  it('moves the marks when another device switches the branch, and extends them when a reply arrives', async () => {
    const db = device('branch-switch')
    await applyInPages(db, chat('gamma', 20), 1000)
    await applyRemoteChanges(db, [change('thread', { id: 'gamma', title: 'gamma', createdAt: 0, updatedAt: 1, activeLeafId: 'gamma-old' })], seq)
    expect(await contents('gamma')).toEqual(['gamma message 0', 'gamma message 1', 'gamma old branch'])
    await applyRemoteChanges(db, [
      change('message', { id: 'gamma-reply', threadId: 'gamma', seq: 30, parentId: 'gamma-old', role: 'assistant', content: 'gamma reply', status: 'complete', createdAt: 30 }),
      change('thread', { id: 'gamma', title: 'gamma', createdAt: 0, updatedAt: 2, activeLeafId: 'gamma-reply' }),
    ], seq)
    expect(await contents('gamma')).toEqual(['gamma message 0', 'gamma message 1', 'gamma old branch', 'gamma reply'])
    expect(await db.messages.where('[threadId+onPath+seq]').between(['gamma', 1, 0], ['gamma', 1, Infinity]).count()).toBe(4)
  })
})
