import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { watch } from 'vue'
import { createHlcClock } from '#shared/sync/hlc'
import type { SyncedChange } from '#shared/sync/sync-record'
import { PlugboardDatabase } from '~/db/database'
import { startSyncEngine } from '~/utils/sync/sync-engine'
import type { SyncEngine } from '~/utils/sync/sync-engine'
import { syncStatus } from '~/utils/sync/sync-status'

// A device pulling an account that spans several pages: every page lands, in order, and the cursor ends past the
// last; a page that fails to arrive is fetched again and nothing is skipped.

const clock = createHlcClock('server')
const changes: SyncedChange[] = Array.from({ length: 25 }, (_, index) => ({
  kind: 'thread', id: `thread-${index}`, hlc: clock.now(), deleted: false, seq: index + 1,
  body: { id: `thread-${index}`, title: `Chat ${index}`, createdAt: index, updatedAt: index },
}))

/** The server's pull in pages of 4; `failAt` makes the first request for that cursor fail. */
function fakeServer(failAt?: number) {
  const cursors: number[] = []
  let failed = false
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://device.test')
    if (url.pathname !== '/api/sync/pull') return Response.json({ applied: 0, cursor: 0 })
    const cursor = Number(url.searchParams.get('cursor'))
    cursors.push(cursor)
    if (cursor === failAt && !failed) {
      failed = true
      throw new TypeError('Failed to fetch')
    }
    const page = changes.filter(change => change.seq > cursor).slice(0, 4)
    return Response.json({ changes: page, cursor: page.at(-1)?.seq ?? cursor, more: (page.at(-1)?.seq ?? cursor) < changes.length })
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, cursors }
}

const engines: SyncEngine[] = []
const opened: PlugboardDatabase[] = []
afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop()
  for (const db of opened.splice(0)) db.close()
})

function startDevice(name: string, fetch: typeof globalThis.fetch) {
  const db = new PlugboardDatabase(name, { indexedDB: new IDBFactory(), IDBKeyRange })
  opened.push(db)
  engines.push(startSyncEngine({ db, fetch, maxRetryMs: 10 }))
  return db
}

describe('the sync engine pulling many pages', () => {
  it('applies every page in order and ends synced with the cursor past the last change', async () => {
    const server = fakeServer()
    const db = startDevice('engine-pages', server.fetch)
    await vi.waitFor(() => expect(syncStatus.value.state).toBe('synced'), { timeout: 10_000 })
    expect(await db.threads.count()).toBe(25)
    expect(await db.syncState.get('cursor')).toEqual({ key: 'cursor', value: 25 })
    expect(server.cursors).toEqual([0, 4, 8, 12, 16, 20, 24])
  })

  it('fetches a page again after it failed to arrive, skipping nothing', async () => {
    const server = fakeServer(12)
    const db = startDevice('engine-retry', server.fetch)
    await vi.waitFor(async () => expect(await db.threads.count()).toBe(25), { timeout: 10_000 })
    await vi.waitFor(() => expect(syncStatus.value.state).toBe('synced'), { timeout: 10_000 })
    expect(await db.syncState.get('cursor')).toEqual({ key: 'cursor', value: 25 })
    expect(server.cursors.filter(cursor => cursor === 12)).toHaveLength(2)
  })
})

describe('the sync status of a device that has not pulled yet', () => {
  it('never says Synced before the first pull has come back', async () => {
    const server = fakeServer()
    const seen: string[] = []
    let pulled = false
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await server.fetch(input, init)
      pulled = true
      return response
    }) as typeof globalThis.fetch
    const stop = watch(syncStatus, status => void seen.push(`${status.state}${pulled ? ' after the first pull' : ''}`), { flush: 'sync' })
    try {
      const db = startDevice('engine-status', fetch)
      await vi.waitFor(() => expect(syncStatus.value.state).toBe('synced'), { timeout: 10_000 })
      expect(await db.threads.count()).toBe(25)
      expect(seen).not.toContain('synced')
      expect(seen.at(-1)).toBe('synced after the first pull')
    }
    finally {
      stop()
    }
  })
})
