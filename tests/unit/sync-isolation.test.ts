import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeHlc } from '#shared/sync/hlc'
import type { SyncChange } from '#shared/sync/sync-record'
import type { ServerDatabase } from '~~/server/utils/database/open-database'
import { createShareLinkStore } from '~~/server/utils/share/share-link-store'
import { hashShareToken, newShareToken } from '~~/server/utils/share/share-token'
import { createSyncBlobStore, SyncBlobTooLargeError } from '~~/server/utils/sync/sync-blob-store'
import { createSyncStore } from '~~/server/utils/sync/sync-store'
import { createDatabaseWorkflowStore } from '~~/server/utils/workflows/database-workflow-store'
import { postgresMissing, startPostgresServer } from './helpers/postgres-server'
import type { PostgresServer } from './helpers/postgres-server'
import { createPostgresDatabase, openPgliteForTest, openPostgresForTest } from './helpers/test-databases'

// Synced files and the isolation of accounts, against the embedded database and a real Postgres alike: account B,
// knowing every id of account A, reads, overwrites and deletes nothing of A's.

const missing = postgresMissing()
if (missing) console.warn(`Skipping the Postgres half of the sync isolation tests: ${missing}`)

let postgres: PostgresServer | undefined
const opened: ServerDatabase[] = []
beforeAll(async () => {
  if (!missing) postgres = await startPostgresServer()
}, 60_000)
afterAll(async () => {
  for (const database of opened.splice(0)) await database.close()
  await postgres?.stop()
})

const backends: Array<[string, () => Promise<ServerDatabase>]> = [['PGlite (embedded)', openPgliteForTest]]
if (!missing) backends.push(['Postgres', async () => openPostgresForTest(await createPostgresDatabase(postgres!.url))])

let owners = 0
const freshOwner = () => `owner-${++owners}-${Math.random().toString(36).slice(2)}`
const at = (wallMs: number) => encodeHlc({ wallMs, counter: 0, node: 'a' })
const bytes = (size: number, fill = 1) => Buffer.alloc(size, fill)

describe.each(backends)('synced files and account isolation on %s', (_name, open) => {
  let database: ServerDatabase
  beforeAll(async () => {
    database = await open()
    opened.push(database)
  }, 120_000)

  it('keeps a file byte for byte, once: sending it again is a no-op', async () => {
    const blobs = createSyncBlobStore(database.db)
    const owner = freshOwner()
    const data = Buffer.from([0, 1, 2, 250, 255, 0x89, 0x50])
    await blobs.put(owner, { id: 'att-1', messageId: 'm1', mime: 'image/png', data })
    await blobs.put(owner, { id: 'att-1', messageId: 'm1', mime: 'image/png', data: bytes(3) })
    const stored = await blobs.get(owner, 'att-1')
    expect(stored?.mime).toBe('image/png')
    expect([...stored!.data]).toEqual([...data])
  })

  it('refuses a file over the per-file cap and one that would pass the account\'s cap, naming the cap', async () => {
    const blobs = createSyncBlobStore(database.db, { maxBlobBytes: 1000, maxOwnerBytes: 1500 })
    const owner = freshOwner()
    await expect(blobs.put(owner, { id: 'big', messageId: 'm1', mime: 'image/png', data: bytes(1001) })).rejects.toThrow(new SyncBlobTooLargeError('file', 1000))
    await blobs.put(owner, { id: 'a', messageId: 'm1', mime: 'image/png', data: bytes(900) })
    const refused = blobs.put(owner, { id: 'b', messageId: 'm2', mime: 'image/png', data: bytes(700) })
    await expect(refused).rejects.toBeInstanceOf(SyncBlobTooLargeError)
    await expect(refused).rejects.toThrow(/Synced files of one account take at most/)
    expect(await blobs.get(owner, 'b')).toBeUndefined()
    // Another account has a cap of its own.
    await blobs.put(freshOwner(), { id: 'b', messageId: 'm2', mime: 'image/png', data: bytes(700) })
    // Room made by deleting the first message's files.
    expect(await blobs.deleteOfMessages(owner, ['m1'])).toBe(1)
    await blobs.put(owner, { id: 'b', messageId: 'm2', mime: 'image/png', data: bytes(700) })
    expect(await blobs.get(owner, 'b')).toBeDefined()
  })

  it('removes the files of deleted messages only', async () => {
    const blobs = createSyncBlobStore(database.db)
    const owner = freshOwner()
    await blobs.put(owner, { id: 'x1', messageId: 'gone', mime: 'image/png', data: bytes(10) })
    await blobs.put(owner, { id: 'x2', messageId: 'gone', mime: 'text/plain', data: bytes(10) })
    await blobs.put(owner, { id: 'x3', messageId: 'kept', mime: 'image/png', data: bytes(10) })
    expect(await blobs.deleteOfMessages(owner, ['gone'])).toBe(2)
    expect(await blobs.get(owner, 'x1')).toBeUndefined()
    expect(await blobs.get(owner, 'x3')).toBeDefined()
  })

  it('account B asking for A\'s records by id finds nothing, changes nothing, and never pulls A\'s changes', async () => {
    const [alice, bob] = [freshOwner(), freshOwner()]
    const sync = createSyncStore(database.db)
    const blobs = createSyncBlobStore(database.db)
    const shares = createShareLinkStore(database.db)
    const workflows = createDatabaseWorkflowStore(database.db)
    const aliceChanges: SyncChange[] = [
      { kind: 'thread', id: 't-alice', hlc: at(10), deleted: false, body: { id: 't-alice', title: 'Alice\'s plans' } },
      { kind: 'message', id: 'm-alice', hlc: at(11), deleted: false, body: { id: 'm-alice', threadId: 't-alice', content: 'secret' } },
      { kind: 'preset', id: 'p-alice', hlc: at(12), deleted: false, body: { id: 'p-alice', name: 'Mine' } },
    ]
    await sync.push(alice, aliceChanges)
    await blobs.put(alice, { id: 'f-alice', messageId: 'm-alice', mime: 'image/png', data: bytes(16, 7) })
    const share = await shares.create({ ownerId: alice, tokenHash: hashShareToken(newShareToken()), snapshot: { version: 1, title: 'Alice\'s plans', takenAt: 1, messages: [] }, bytes: 50, createdAt: 1 }, 10)
    await workflows.put({ id: 'wf-alice', sessionId: alice, name: 'Digest', systemPrompt: '', model: 'm', tools: [], firstMessage: 'hi', createdAt: 1, updatedAt: 1 })

    // Reads by id: nothing.
    expect(await blobs.get(bob, 'f-alice')).toBeUndefined()
    expect(await workflows.get(bob, 'wf-alice')).toBeUndefined()
    expect(await shares.list(bob)).toEqual([])
    expect(await sync.pull(bob, 0)).toEqual({ changes: [], cursor: 0, more: false })
    // Deletes and overwrites by id: nothing of A's changes.
    expect(await blobs.deleteOfMessages(bob, ['m-alice'])).toBe(0)
    expect(await shares.revoke(bob, share!.id)).toBe(false)
    expect(await workflows.remove(bob, 'wf-alice')).toBe(false)
    await sync.push(bob, [{ kind: 'thread', id: 't-alice', hlc: at(99), deleted: true, body: null }, { kind: 'message', id: 'm-alice', hlc: at(99), deleted: true, body: null }])
    await blobs.put(bob, { id: 'f-alice', messageId: 'm-alice', mime: 'text/plain', data: bytes(3, 9) })

    // B's pull holds B's own writes only; A's records are as A left them.
    expect((await sync.pull(bob, 0)).changes.map(change => `${change.kind}:${change.id}:${change.deleted}`)).toEqual(['thread:t-alice:true', 'message:m-alice:true'])
    const alicePull = await sync.pull(alice, 0)
    expect(alicePull.changes.map(change => [change.id, change.deleted])).toEqual([['t-alice', false], ['m-alice', false], ['p-alice', false]])
    expect([...(await blobs.get(alice, 'f-alice'))!.data]).toEqual([...bytes(16, 7)])
    expect((await blobs.get(bob, 'f-alice'))!.mime).toBe('text/plain')
    expect(await shares.list(alice)).toEqual([expect.objectContaining({ id: share!.id })])
    expect(await shares.list(alice).then(list => list[0]!.revokedAt)).toBeUndefined()
    expect(await workflows.get(alice, 'wf-alice')).toEqual(expect.objectContaining({ name: 'Digest' }))
  })
})
