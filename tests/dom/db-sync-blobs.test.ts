import { Blob as NodeBlob } from 'node:buffer'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SyncChange, SyncedChange } from '#shared/sync/sync-record'
import { addMessageWithAttachments } from '~/db/attachments'
import type { AttachmentDraft } from '~/db/attachments'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { applyRemoteChanges } from '~/db/sync/apply-remote-changes'
import { nextOutboxBatch, settleOutbox } from '~/db/sync/outbox-changes'
import { fetchBlobs, missingBlobsOf, syncBlobIssues, uploadBlobsOf } from '~/db/sync/sync-blobs'
import type { WantedBlobs } from '~/db/sync/sync-blobs'
import { syncRecording } from '~/db/sync/sync-outbox'
import { createThread, deleteThread } from '~/db/threads'

// jsdom's Blob has no arrayBuffer() and does not survive fake-indexeddb's structured clone; Node's does, like a browser's.
const Blob = NodeBlob as unknown as typeof globalThis.Blob

/** The server: the winning change per record (messages here are written once), and files by id for one owner. */
function fakeServer(options: { maxBlobBytes?: number, down?: boolean } = {}) {
  const records = new Map<string, SyncedChange>()
  const files = new Map<string, { messageId: string, data: ArrayBuffer }>()
  let seq = 0
  const answer = (status: number, body: unknown = {}) => ({ ok: status < 300, status, json: async () => body, arrayBuffer: async () => body as ArrayBuffer }) as unknown as Response
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (options.down) throw new TypeError('Failed to fetch')
    const parsed = new URL(url, 'http://app.test')
    const id = decodeURIComponent(parsed.pathname.split('/').at(-1)!)
    if (init?.method === 'PUT') {
      const data = await (init.body as Blob).arrayBuffer()
      if (data.byteLength > (options.maxBlobBytes ?? Infinity)) return answer(413, { message: 'A synced file is at most 1 MB: this one stays on this device.', data: { code: 'server.sync.fileTooLarge', params: { megabytes: 1 } } })
      files.set(id, { messageId: parsed.searchParams.get('message')!, data })
      return answer(200, { stored: true })
    }
    const file = files.get(id)
    return file ? answer(200, file.data) : answer(404, { message: 'No such synced file.' })
  })
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    files,
    options,
    push(changes: SyncChange[]) {
      for (const change of changes) {
        records.set(`${change.kind}:${change.id}`, { ...change, seq: ++seq })
        if (change.kind === 'message' && change.deleted) for (const [id, file] of files) if (file.messageId === change.id) files.delete(id)
      }
    },
    pull(cursor: number) {
      const changes = [...records.values()].filter(change => change.seq > cursor).sort((a, b) => a.seq - b.seq)
      return { changes, cursor: changes.at(-1)?.seq ?? cursor }
    },
  }
}
type Server = ReturnType<typeof fakeServer>

const devices: PlugboardDatabase[] = []
function device(name: string): PlugboardDatabase {
  const db = new PlugboardDatabase(name, { indexedDB: new IDBFactory(), IDBKeyRange })
  devices.push(db)
  return db
}

/** One cycle of the engine: files up before their messages, then the pull and the files it names. */
async function sync(db: PlugboardDatabase, server: Server, wanted: WantedBlobs[] = []): Promise<WantedBlobs[]> {
  const uploaded = new Set<string>()
  for (;;) {
    const batch = await nextOutboxBatch(db)
    if (batch.changes.length === 0) break
    await uploadBlobsOf(db, batch.changes, server.fetch, uploaded)
    server.push(batch.changes)
    await settleOutbox(db, batch.rows)
  }
  const cursor = Number((await db.syncState.get('cursor'))?.value ?? 0)
  const page = server.pull(cursor)
  await applyRemoteChanges(db, page.changes, page.cursor)
  return fetchBlobs(db, [...wanted, ...await missingBlobsOf(db, page.changes)], server.fetch)
}

function draft(id: string, name: string, size: number): AttachmentDraft {
  return { id, kind: 'image', name, mime: 'image/png', size, width: 4, height: 3, blob: new Blob([new Uint8Array(size).fill(7)], { type: 'image/png' }) }
}

async function writeWithFiles(db: PlugboardDatabase, drafts: AttachmentDraft[]) {
  setDatabase(db)
  const thread = await createThread('Holiday photos')
  const message = await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'Look at these', status: 'complete' }, drafts)
  return { thread, message }
}

describe('files of synced messages', () => {
  beforeEach(() => {
    vi.stubGlobal('Blob', Blob)
    syncRecording.enabled = true
    syncBlobIssues.value = []
  })
  afterEach(async () => {
    vi.unstubAllGlobals()
    syncRecording.enabled = false
    setDatabase(undefined)
    for (const db of devices.splice(0)) db.close()
  })

  it('travel with their message: the other device stores the same bytes under the same message', async () => {
    const server = fakeServer()
    const [laptop, phone] = [device('laptop'), device('phone')]
    const { message } = await writeWithFiles(laptop, [draft('photo-1', 'harbour.png', 300), draft('photo-2', 'beach.png', 200)])
    await sync(laptop, server)
    expect([...server.files.keys()].sort()).toEqual(['photo-1', 'photo-2'])
    expect(await sync(phone, server)).toEqual([])
    const stored = await phone.attachments.where('messageId').equals(message.id).sortBy('createdAt')
    expect(stored.map(row => [row.id, row.name, row.size, row.threadId])).toEqual([['photo-1', 'harbour.png', 300, message.threadId], ['photo-2', 'beach.png', 200, message.threadId]])
    expect(new Uint8Array(await stored[0]!.blob.arrayBuffer())).toEqual(new Uint8Array(300).fill(7))
    expect(stored[0]!.blob.type).toBe('image/png')
    expect(syncBlobIssues.value).toEqual([])
  })

  it('a file over the cap stays behind, named with the reason, while its message syncs', async () => {
    const server = fakeServer({ maxBlobBytes: 250 })
    const [laptop, phone] = [device('laptop'), device('phone')]
    const { message } = await writeWithFiles(laptop, [draft('small', 'small.png', 100), draft('huge', 'huge.png', 400)])
    await sync(laptop, server)
    expect(syncBlobIssues.value).toEqual([{ id: 'huge', name: 'huge.png', message: 'A synced file is at most 1 MB: this one stays on this device.', text: { code: 'server.sync.fileTooLarge', params: { megabytes: 1 }, message: 'A synced file is at most 1 MB: this one stays on this device.' } }])
    await sync(phone, server)
    expect(await phone.messages.get(message.id)).toEqual(expect.objectContaining({ content: 'Look at these' }))
    expect(await phone.attachments.where('messageId').equals(message.id).primaryKeys()).toEqual(['small'])
    expect(syncBlobIssues.value.map(issue => issue.name)).toEqual(['huge.png'])
    expect(syncBlobIssues.value[0]!.message).toMatch(/^Not on the server: No such synced file/)
  })

  it('a file that could not be fetched is fetched on the next sync', async () => {
    const server = fakeServer()
    const [laptop, phone] = [device('laptop'), device('phone')]
    await writeWithFiles(laptop, [draft('photo-1', 'harbour.png', 50)])
    await sync(laptop, server)
    server.options.down = true
    const left = await sync(phone, server).catch(() => undefined)
    // The pull itself worked (the fake's records are in memory): only the file fetch failed.
    expect(left?.map(entry => entry.attachments.map(each => each.id))).toEqual([['photo-1']])
    expect(await phone.attachments.count()).toBe(0)
    server.options.down = false
    expect(await sync(phone, server, left)).toEqual([])
    expect(await phone.attachments.get('photo-1')).toBeDefined()
  })

  it('deleting the chat on one device removes its files on the other and on the server', async () => {
    const server = fakeServer()
    const [laptop, phone] = [device('laptop'), device('phone')]
    const { thread } = await writeWithFiles(laptop, [draft('photo-1', 'harbour.png', 50)])
    await sync(laptop, server)
    await sync(phone, server)
    expect(await phone.attachments.count()).toBe(1)
    setDatabase(laptop)
    await deleteThread(thread.id)
    await sync(laptop, server)
    expect(server.files.size).toBe(0)
    await sync(phone, server)
    expect(await phone.attachments.count()).toBe(0)
    expect(await phone.threads.get(thread.id)).toBeUndefined()
  })
})
