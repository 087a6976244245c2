import { Blob as NodeBlob } from 'node:buffer'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createHlcClock } from '#shared/sync/hlc'
import type { SyncedChange } from '#shared/sync/sync-record'
import { indexSyncedDocument } from '~/composables/index-synced-documents'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { fetchBlobs } from '~/db/sync/sync-blobs'
import { FIRST_RETRY_MS, loadWantedFiles, retryDelayMs, wantedFileCount } from '~/db/sync/wanted-files'
import type { AttachmentRecord } from '~/db/types'
import { searchDocuments } from '~/utils/chat/documents/document-index'
import { startSyncEngine } from '~/utils/sync/sync-engine'
import type { SyncEngine } from '~/utils/sync/sync-engine'

// A device that pulls a message whose file the server cannot hand out yet (down, 5xx) keeps asking, with a growing
// pause, also after a reload; and a synced document becomes searchable on the device that fetched it.

// jsdom's Blob does not survive fake-indexeddb's structured clone; Node's does, like a browser's.
const Blob = NodeBlob as unknown as typeof globalThis.Blob
const NOTES = '# Trip notes\n\nThe ferry to Capri leaves at 7:40 from Molo Beverello; buy tickets at the kiosk.'
const clock = createHlcClock('laptop')
const summary = { id: 'doc-1', kind: 'document' as const, name: 'notes.md', mime: 'text/markdown', size: NOTES.length }
const changes: SyncedChange[] = [
  { kind: 'message', id: 'message-1', hlc: clock.now(), deleted: false, seq: 1, body: { id: 'message-1', threadId: 'thread-1', seq: 1, role: 'user', content: 'My notes', status: 'complete', createdAt: 1, updatedAt: 1, attachments: [summary] } },
  { kind: 'thread', id: 'thread-1', hlc: clock.now(), deleted: false, seq: 2, body: { id: 'thread-1', title: 'Trip', createdAt: 1, updatedAt: 1, activeLeafId: 'message-1' } },
]

/** The server: one account's two changes and one file, which answers `failWith` while it is set. */
function fakeServer() {
  const state = { failWith: 0 as number, fileRequests: 0 }
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://device.test')
    if (url.pathname === '/api/sync/pull') {
      const cursor = Number(url.searchParams.get('cursor'))
      const page = changes.filter(change => change.seq > cursor)
      return Response.json({ changes: page, cursor: page.at(-1)?.seq ?? cursor, more: false })
    }
    if (url.pathname.startsWith('/api/sync/blobs/')) {
      state.fileRequests++
      if (state.failWith === -1) throw new TypeError('Failed to fetch')
      if (state.failWith) return Response.json({ message: 'Database unavailable' }, { status: state.failWith })
      return new Response(NOTES)
    }
    return Response.json({ applied: 0, cursor: 0 })
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, state }
}

const engines: SyncEngine[] = []
const opened: PlugboardDatabase[] = []
beforeEach(() => {
  vi.stubGlobal('Blob', Blob)
})
afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop()
  for (const db of opened.splice(0)) db.close()
  setDatabase(undefined)
  vi.unstubAllGlobals()
})

/** One page load of the app on this device's IndexedDB (`factory`): a database and its engine. */
function openPage(factory: IDBFactory, fetch: typeof globalThis.fetch, onFileStored?: (record: AttachmentRecord) => void) {
  const db = new PlugboardDatabase('wanted-files', { indexedDB: factory, IDBKeyRange })
  opened.push(db)
  setDatabase(db)
  const engine = startSyncEngine({ db, fetch, maxRetryMs: 60_000, onFileStored })
  engines.push(engine)
  return { db, engine }
}

describe('files still to fetch', () => {
  it('survive a reload while the server answers 5xx, and arrive once it recovers', async () => {
    const server = fakeServer()
    server.state.failWith = 503
    const factory = new IDBFactory()
    const first = openPage(factory, server.fetch)
    await vi.waitFor(async () => expect((await loadWantedFiles(first.db))[0]).toMatchObject({ messageId: 'message-1', attempts: 1 }), { timeout: 10_000 })
    const [kept] = await loadWantedFiles(first.db)
    expect(kept!.attachments.map(each => each.id)).toEqual(['doc-1'])
    expect(kept!.retryAt).toBeGreaterThan(Date.now())
    expect(wantedFileCount.value).toBe(1)
    expect(await first.db.attachments.count()).toBe(0)
    expect(await first.db.messages.get('message-1')).toMatchObject({ content: 'My notes' })

    // The tab is closed while the pause runs; the server recovers; the next page load fetches the file at once.
    engines.splice(0).forEach(engine => engine.stop())
    first.db.close()
    server.state.failWith = 0
    const stored: AttachmentRecord[] = []
    const second = openPage(factory, server.fetch, record => stored.push(record))
    await vi.waitFor(async () => expect(await second.db.attachments.get('doc-1')).toMatchObject({ messageId: 'message-1', threadId: 'thread-1', name: 'notes.md' }), { timeout: 10_000 })
    expect(await new Response((await second.db.attachments.get('doc-1'))!.blob).text()).toBe(NOTES)
    await vi.waitFor(async () => expect(await second.db.syncState.get('wantedFiles')).toBeUndefined(), { timeout: 10_000 })
    expect(wantedFileCount.value).toBe(0)
    expect(stored.map(record => record.id)).toEqual(['doc-1'])
  })

  it('are tried again after a pause that doubles with each failure, up to the longest pause', async () => {
    expect([1, 2, 3, 4].map(attempts => retryDelayMs(attempts, 30_000))).toEqual([FIRST_RETRY_MS, 2 * FIRST_RETRY_MS, 4 * FIRST_RETRY_MS, 8 * FIRST_RETRY_MS])
    expect(retryDelayMs(40, 30_000)).toBe(30_000)
    const server = fakeServer()
    server.state.failWith = -1
    const { db } = openPage(new IDBFactory(), server.fetch)
    await vi.waitFor(async () => expect((await loadWantedFiles(db))[0]?.attempts).toBe(1), { timeout: 10_000 })
    const [entry] = await loadWantedFiles(db)
    const before = Date.now()
    const [again] = await fetchBlobs(db, [entry!], server.fetch, { maxRetryMs: 60_000 })
    expect(again!.attempts).toBe(2)
    expect(again!.retryAt! - before).toBeGreaterThanOrEqual(2 * FIRST_RETRY_MS)
    // While the pause runs the engine does not ask again.
    expect(server.state.fileRequests).toBe(2)
  })

  it('a synced document gets its search passages on the device that fetched it', async () => {
    const server = fakeServer()
    const indexed: Array<Promise<void>> = []
    const { db } = openPage(new IDBFactory(), server.fetch, record => indexed.push(indexSyncedDocument(record)))
    await vi.waitFor(() => expect(indexed).toHaveLength(1), { timeout: 10_000 })
    await indexed[0]
    expect(await db.documentPassages.where('attachmentId').equals('doc-1').count()).toBeGreaterThan(0)
    const [hit] = await searchDocuments('thread-1', 'When does the ferry to Capri leave?')
    expect(hit).toMatchObject({ attachmentId: 'doc-1', name: 'notes.md' })
    expect(hit!.text).toContain('7:40 from Molo Beverello')
  })

  it('only documents are indexed: an image that arrives is left alone', async () => {
    const { db } = openPage(new IDBFactory(), fakeServer().fetch)
    const image: AttachmentRecord = { id: 'img-1', kind: 'image', name: 'a.png', mime: 'image/png', size: 3, threadId: 'thread-1', messageId: 'message-1', blob: new Blob([new Uint8Array(3)]), createdAt: 1 }
    await indexSyncedDocument(image)
    expect(await db.documentPassages.count()).toBe(0)
  })
})
