import { expect, it } from 'vitest'
import { encodeHlc } from '#shared/sync/hlc'
import type { SyncChange } from '#shared/sync/sync-record'
import { SyncQuotaError } from '~~/server/utils/sync/sync-quota-error'
import { createSyncStore } from '~~/server/utils/sync/sync-store'
import { describeOnDatabases } from './helpers/database-backends'

let owners = 0
const freshOwner = () => `owner-${++owners}-${Math.random().toString(36).slice(2)}`
const at = (wallMs: number, node = 'a') => encodeHlc({ wallMs, counter: 0, node })
const thread = (id: string, wallMs: number, title = 'A chat'): SyncChange => ({ kind: 'thread', id, hlc: at(wallMs), deleted: false, body: { id, title } })
const tombstone = (kind: SyncChange['kind'], id: string, wallMs: number): SyncChange => ({ kind, id, hlc: at(wallMs), deleted: true, body: null })

describeOnDatabases('the sync store', (databases) => {

  it('returns an owner\'s changes after a cursor, in order, and pages through them', async () => {
    const store = createSyncStore(databases.first.db)
    const owner = freshOwner()
    const pushed = await store.push(owner, [thread('t1', 1), thread('t2', 2), thread('t3', 3)])
    expect(pushed.applied).toBe(3)
    const page = await store.pull(owner, 0, 2)
    expect(page.changes.map(change => change.id)).toEqual(['t1', 't2'])
    expect(page.more).toBe(true)
    const rest = await store.pull(owner, page.cursor, 2)
    expect(rest.changes.map(change => change.id)).toEqual(['t3'])
    expect(rest.more).toBe(false)
    expect(rest.cursor).toBe(pushed.cursor)
    expect(await store.pull(owner, rest.cursor)).toEqual({ changes: [], cursor: rest.cursor, more: false })
  })

  it('keeps the winning change only: an older write or a resent change stores nothing and moves no cursor', async () => {
    const store = createSyncStore(databases.first.db)
    const owner = freshOwner()
    await store.push(owner, [thread('t1', 5, 'newer')])
    const { cursor } = await store.pull(owner, 0)
    expect(await store.push(owner, [thread('t1', 4, 'older'), thread('t1', 5, 'newer')])).toEqual({ applied: 0, cursor })
    await store.push(owner, [tombstone('thread', 't1', 6)])
    const after = await store.pull(owner, cursor)
    expect(after.changes).toEqual([expect.objectContaining({ id: 't1', deleted: true, body: null })])
    // Written offline after the delete: the edit wins and the chat comes back.
    await store.push(owner, [thread('t1', 7, 'edited offline')])
    expect((await store.pull(owner, after.cursor)).changes[0]!.body).toEqual({ id: 't1', title: 'edited offline' })
  })

  it('never returns another owner\'s records, even by the same id', async () => {
    const store = createSyncStore(databases.first.db)
    const [alice, bob] = [freshOwner(), freshOwner()]
    await store.push(alice, [thread('shared-id', 1, 'Alice\'s secret')])
    await store.push(bob, [thread('shared-id', 0, 'Bob\'s')])
    expect((await store.pull(bob, 0)).changes.map(change => change.body)).toEqual([{ id: 'shared-id', title: 'Bob\'s' }])
    // Bob's tombstone with a later clock deletes Bob's copy only.
    await store.push(bob, [tombstone('thread', 'shared-id', 9)])
    expect((await store.pull(alice, 0)).changes.map(change => change.body)).toEqual([{ id: 'shared-id', title: 'Alice\'s secret' }])
  })

  it('caps an owner\'s records and bytes, storing nothing of the push that would pass them', async () => {
    const store = createSyncStore(databases.first.db, { maxRecords: 3, maxBytes: 200 })
    const owner = freshOwner()
    await store.push(owner, [thread('t1', 1), thread('t2', 1)])
    await expect(store.push(owner, [thread('t3', 1), thread('t4', 1)])).rejects.toThrow(SyncQuotaError)
    await expect(store.push(owner, [thread('t1', 2, 'x'.repeat(300))])).rejects.toThrow(/MB per account/)
    expect((await store.pull(owner, 0)).changes.map(change => change.id)).toEqual(['t1', 't2'])
    // A delete frees room.
    await store.push(owner, [tombstone('thread', 't1', 3), thread('t3', 1)])
    expect((await store.pull(owner, 0)).changes.map(change => change.id).sort()).toEqual(['t1', 't2', 't3'])
  })

  it('hands out cursors so that a device pulling during concurrent pushes through two instances misses nothing', async () => {
    const stores = [createSyncStore(databases.first.db), createSyncStore(databases.second.db)]
    const owner = freshOwner()
    const seen = new Set<string>()
    let cursor = 0
    const pulling = (async () => {
      for (let round = 0; round < 40 && seen.size < 40; round++) {
        const page = await stores[round % 2]!.pull(owner, cursor)
        for (const change of page.changes) seen.add(change.id)
        cursor = page.cursor
      }
    })()
    await Promise.all(Array.from({ length: 20 }, (_, index) => stores[index % 2]!.push(owner, [thread(`a${index}`, index), thread(`b${index}`, index)])))
    await pulling
    for (const change of (await stores[0]!.pull(owner, cursor)).changes) seen.add(change.id)
    expect(seen.size).toBe(40)
  })
})
