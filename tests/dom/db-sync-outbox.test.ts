import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mergeChanges } from '#shared/sync/merge-change'
import type { SyncChange, SyncedChange } from '#shared/sync/sync-record'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { addEditedMessage, switchBranch } from '~/db/message-branches'
import { addMessage, listMessages, updateMessage } from '~/db/messages'
import { applyRemoteChanges } from '~/db/sync/apply-remote-changes'
import { enqueueEverything, nextOutboxBatch, settleOutbox } from '~/db/sync/outbox-changes'
import { deviceClock, syncRecording } from '~/db/sync/sync-outbox'
import { createThread, deleteThread, getThread, renameThread } from '~/db/threads'
import { getServerJob, setServerJob } from '~/db/server-jobs'

/** The server's side, as the store keeps it: the winning change per record and a growing sequence. */
function fakeServer() {
  const records = new Map<string, SyncedChange>()
  let seq = 0
  return {
    push(changes: SyncChange[]) {
      for (const change of changes) {
        const before = records.get(`${change.kind}:${change.id}`)
        const merged = mergeChanges(new Map(before ? [[`${change.kind}:${change.id}`, before]] : []), [{ ...change, seq: 0 }])
        const winner = merged.get(`${change.kind}:${change.id}`)!
        if (winner !== before) records.set(`${change.kind}:${change.id}`, { ...winner, seq: ++seq })
      }
    },
    pull(cursor: number) {
      const changes = [...records.values()].filter(change => change.seq > cursor).sort((a, b) => a.seq - b.seq)
      return { changes, cursor: changes.at(-1)?.seq ?? cursor }
    },
  }
}

const devices: PlugboardDatabase[] = []
function device(name: string): PlugboardDatabase {
  const db = new PlugboardDatabase(name, { indexedDB: new IDBFactory(), IDBKeyRange })
  devices.push(db)
  return db
}
/** Runs `work` with `db` as the database the app's queries use. */
async function on<T>(db: PlugboardDatabase, work: () => Promise<T>): Promise<T> {
  setDatabase(db)
  return work()
}
async function sync(db: PlugboardDatabase, server: ReturnType<typeof fakeServer>) {
  for (;;) {
    const batch = await nextOutboxBatch(db)
    if (batch.changes.length === 0) break
    server.push(batch.changes)
    await settleOutbox(db, batch.rows)
  }
  const cursor = Number((await db.syncState.get('cursor'))?.value ?? 0)
  const page = server.pull(cursor)
  await applyRemoteChanges(db, page.changes, page.cursor)
}
const contents = (db: PlugboardDatabase, threadId: string) => on(db, async () => (await listMessages(threadId)).map(row => row.content))

beforeEach(() => { syncRecording.enabled = true })
afterEach(() => {
  syncRecording.enabled = false
  for (const db of devices.splice(0)) db.close()
  setDatabase(undefined)
})

describe('the sync outbox', () => {
  it('records every write to a synced table in the same transaction, once per record, and nothing it applied from the server', async () => {
    const db = device('outbox-a')
    const thread = await on(db, () => createThread())
    await on(db, () => addMessage({ threadId: thread.id, role: 'user', content: 'hi', status: 'complete' }))
    const keys = (await db.syncOutbox.toArray()).map(row => row.key).sort()
    expect(keys).toEqual([`message:${(await db.messages.toArray())[0]!.id}`, `thread:${thread.id}`].sort())
    await applyRemoteChanges(db, [{ kind: 'preset', id: 'p1', hlc: deviceClock.now(), deleted: false, body: { id: 'p1', name: 'From elsewhere' }, seq: 1 }], 1)
    expect(await db.syncOutbox.count()).toBe(2)
    expect(await db.presets.get('p1')).toMatchObject({ name: 'From elsewhere' })
  })

  it('records nothing while the browser does not sync', async () => {
    syncRecording.enabled = false
    const db = device('outbox-off')
    await on(db, () => createThread())
    expect(await db.syncOutbox.count()).toBe(0)
  })

  it('holds a reply back while it streams and sends it once it settles', async () => {
    const db = device('outbox-stream')
    const thread = await on(db, () => createThread())
    const reply = await on(db, () => addMessage({ threadId: thread.id, role: 'assistant', content: '', status: 'streaming' }))
    expect((await nextOutboxBatch(db)).changes.map(change => change.kind)).toEqual(['thread'])
    await on(db, () => updateMessage(reply.id, { content: 'done', status: 'complete' }))
    expect((await nextOutboxBatch(db)).changes.find(change => change.kind === 'message')?.body).toMatchObject({ content: 'done' })
  })

  it('keeps a record written again while its push was under way', async () => {
    const db = device('outbox-race')
    const thread = await on(db, () => createThread())
    const batch = await nextOutboxBatch(db)
    await on(db, () => renameThread(thread.id, 'Renamed meanwhile'))
    await settleOutbox(db, batch.rows)
    expect((await nextOutboxBatch(db)).changes.map(change => change.body?.title)).toEqual(['Renamed meanwhile'])
  })
})

describe('two devices syncing through the server', () => {
  it('brings a chat written on one device to the other, its tree and active branch included', async () => {
    const server = fakeServer()
    const [laptop, phone] = [device('sync-laptop'), device('sync-phone')]
    const thread = await on(laptop, () => createThread())
    const question = await on(laptop, () => addMessage({ threadId: thread.id, role: 'user', content: 'Q', status: 'complete' }))
    await on(laptop, () => addMessage({ threadId: thread.id, role: 'assistant', content: 'A1', status: 'complete' }))
    await on(laptop, () => addEditedMessage(question.id, 'Q2'))
    await on(laptop, () => addMessage({ threadId: thread.id, role: 'assistant', content: 'A2', status: 'complete' }))
    await sync(laptop, server)
    await sync(phone, server)
    expect(await contents(phone, thread.id)).toEqual(['Q2', 'A2'])
    expect(await phone.syncOutbox.count()).toBe(0)
    // A branch switched on the phone shows on the laptop.
    await on(phone, () => switchBranch(question.id))
    await sync(phone, server)
    await sync(laptop, server)
    expect(await contents(laptop, thread.id)).toEqual(['Q', 'A1'])
  })

  it('converges after both devices wrote offline, losing no message', async () => {
    const server = fakeServer()
    const [laptop, phone] = [device('offline-laptop'), device('offline-phone')]
    const thread = await on(laptop, () => createThread())
    await on(laptop, () => addMessage({ threadId: thread.id, role: 'user', content: 'start', status: 'complete' }))
    await sync(laptop, server)
    await sync(phone, server)
    // Offline: each adds a message and renames the chat.
    await on(laptop, () => addMessage({ threadId: thread.id, role: 'user', content: 'from laptop', status: 'complete' }))
    await on(laptop, () => renameThread(thread.id, 'Laptop title'))
    await on(phone, () => addMessage({ threadId: thread.id, role: 'user', content: 'from phone', status: 'complete' }))
    await on(phone, () => renameThread(thread.id, 'Phone title'))
    for (const db of [laptop, phone, laptop, phone]) await sync(db, server)
    const rows = async (db: PlugboardDatabase) => (await db.messages.where('threadId').equals(thread.id).toArray()).map(row => row.content).sort()
    expect(await rows(laptop)).toEqual(['from laptop', 'from phone', 'start'])
    expect(await rows(phone)).toEqual(await rows(laptop))
    const [laptopThread, phoneThread] = [await on(laptop, () => getThread(thread.id)), await on(phone, () => getThread(thread.id))]
    expect(laptopThread?.title).toBe('Phone title')
    expect(phoneThread).toEqual(laptopThread)
    expect(await contents(phone, thread.id)).toEqual(await contents(laptop, thread.id))
  })

  it('deletes a chat on the other device, and uploads existing chats when asked to', async () => {
    const server = fakeServer()
    syncRecording.enabled = false
    const [laptop, phone] = [device('delete-laptop'), device('delete-phone')]
    const thread = await on(laptop, () => createThread())
    await on(laptop, () => addMessage({ threadId: thread.id, role: 'user', content: 'old chat', status: 'complete' }))
    syncRecording.enabled = true
    expect(await enqueueEverything(laptop, () => deviceClock.now())).toBe(1)
    await sync(laptop, server)
    await sync(phone, server)
    expect(await contents(phone, thread.id)).toEqual(['old chat'])
    // the phone follows a reply the server writes for this chat
    await on(phone, () => setServerJob(thread.id, { id: 'job-1', lastEventId: 2 }))
    await on(laptop, () => deleteThread(thread.id))
    await sync(laptop, server)
    await sync(phone, server)
    expect(await phone.threads.count()).toBe(0)
    expect(await phone.messages.count()).toBe(0)
    expect(await phone.serverJobs.count()).toBe(0)
  })

  it('sends nothing for the checkpoints of a reply the server writes (four a second): they stay on this device', async () => {
    const server = fakeServer()
    const laptop = device('checkpoints-laptop')
    const thread = await on(laptop, () => createThread())
    await on(laptop, () => addMessage({ threadId: thread.id, role: 'user', content: 'long answer please', status: 'complete' }))
    await sync(laptop, server)
    expect((await nextOutboxBatch(laptop)).changes).toEqual([])
    for (let id = 1; id <= 8; id++) await on(laptop, () => setServerJob(thread.id, { id: 'job-1', lastEventId: id * 10, step: 1 }))
    expect((await nextOutboxBatch(laptop)).changes).toEqual([])
    expect(await on(laptop, () => getServerJob(thread.id))).toEqual({ id: 'job-1', lastEventId: 80, step: 1 })
  })
})
