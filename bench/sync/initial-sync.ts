// Initial sync of a large account: 10,000 messages (100 chats of 100) pulled page by page from the server's store
// (PGlite in memory) and applied to a fresh browser database (Dexie on fake-indexeddb), as a new device does.
// The HTTP hop is left out (one JSON page per request); the figure is the store's reads plus the device's writes.
// Run: node --import tsx bench/sync/initial-sync.ts [--messages 10000]
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { createHlcClock } from '../../shared/sync/hlc'
import type { SyncChange } from '../../shared/sync/sync-record'
import { PlugboardDatabase } from '../../app/db/database'
import { applyRemoteChanges } from '../../app/db/sync/apply-remote-changes'
import { loadMigrations, readMigrationsFromDir } from '../../server/utils/database/migration-files'
import { openDatabase } from '../../server/utils/database/open-database'
import { createSyncStore } from '../../server/utils/sync/sync-store'
import { printTable, writeResult } from '../lib/index'

const argument = process.argv.indexOf('--messages')
const total = argument > 0 ? Number(process.argv[argument + 1]) : 10_000
const perChat = 100
const clock = createHlcClock('bench')

function seedChanges(): SyncChange[] {
  const changes: SyncChange[] = []
  for (let chat = 0; chat < Math.ceil(total / perChat); chat++) {
    const threadId = `thread-${chat}`
    let parentId: string | undefined
    for (let index = 0; index < perChat && chat * perChat + index < total; index++) {
      const id = `message-${chat}-${index}`
      const role = index % 2 === 0 ? 'user' : 'assistant'
      const content = `${role === 'user' ? 'Question' : 'Answer'} ${index} of chat ${chat}: ${'lorem ipsum dolor sit amet '.repeat(8)}`
      changes.push({ kind: 'message', id, hlc: clock.now(), deleted: false, body: { id, threadId, seq: index + 1, parentId, role, content, status: 'complete', createdAt: index, updatedAt: index } })
      parentId = id
    }
    changes.push({ kind: 'thread', id: threadId, hlc: clock.now(), deleted: false, body: { id: threadId, title: `Chat ${chat}`, createdAt: 0, updatedAt: 0, activeLeafId: parentId } })
  }
  return changes
}

const server = await openDatabase({ dataDir: 'memory://', migrations: await loadMigrations(readMigrationsFromDir()) })
const store = createSyncStore(server.db)
const changes = seedChanges()
const uploadStarted = performance.now()
for (let offset = 0; offset < changes.length; offset += 500) await store.push('bench-owner', changes.slice(offset, offset + 500))
const uploadMs = performance.now() - uploadStarted

const device = new PlugboardDatabase('bench-device', { indexedDB: new IDBFactory(), IDBKeyRange })
await device.open()
let pullMs = 0
let applyMs = 0
let pages = 0
let cursor = 0
const started = performance.now()
for (;;) {
  const pullStarted = performance.now()
  const page = await store.pull('bench-owner', cursor)
  const json = JSON.parse(JSON.stringify(page)) as typeof page
  pullMs += performance.now() - pullStarted
  const applyStarted = performance.now()
  await applyRemoteChanges(device, json.changes, json.cursor)
  applyMs += performance.now() - applyStarted
  pages += 1
  cursor = json.cursor
  if (!page.more) break
}
const totalMs = performance.now() - started
const stored = await device.messages.count()
const onPath = await device.messages.where('[threadId+onPath+seq]').between(['thread-0', 1, 0], ['thread-0', 1, Infinity]).count()
if (stored !== total || onPath !== Math.min(perChat, total)) throw new Error(`The device holds ${stored} messages (${onPath} on chat 0's path); expected ${total}.`)
const rows = [{ messages: total, pages, 'upload (s)': (uploadMs / 1000).toFixed(2), 'pull (s)': (pullMs / 1000).toFixed(2), 'apply (s)': (applyMs / 1000).toFixed(2), 'initial sync (s)': (totalMs / 1000).toFixed(2) }]
printTable('Initial sync of a new device', rows)
console.info(`written to ${await writeResult('sync-initial-sync', rows[0])}`)
device.close()
await server.close()
