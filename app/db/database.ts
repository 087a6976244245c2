import { Dexie, type EntityTable } from 'dexie'
import { StorageError } from '#shared/errors/storage-error'
import type { AttachmentRecord, AuditRecord, DocumentPassageRecord, MessageRecord, PresetRecord, ServerJobRecord, ThreadRecord, UserToolRecord } from './types'
import { storageStatus } from './storage-status'
import { installSearchIndexHooks, type SearchIndexRow, type SearchWordRow } from './search-index'
import { linkRowsInOrder } from './tree-migration'
import { moveServerJobsOffThreads } from './server-job-migration'
import { installSyncOutbox } from './sync/sync-outbox'
import type { SyncOutboxRow, SyncStateRow } from './sync/sync-outbox'

/** Lets tests (and the in-memory fallback) hand Dexie an IndexedDB implementation. */
export interface PlugboardDatabaseOptions {
  /** @default globalThis.indexedDB, as Dexie found it when it loaded */
  indexedDB?: IDBFactory
  /** @default globalThis.IDBKeyRange */
  IDBKeyRange?: typeof IDBKeyRange
}

/** The chats, in IndexedDB: one row per thread, one row per message (tool results included). */
export class PlugboardDatabase extends Dexie {
  threads!: EntityTable<ThreadRecord, 'id'>
  messages!: EntityTable<MessageRecord, 'id'>
  /** Every tool run (the audit log); outlives deleted chats until the user clears it. */
  audit!: EntityTable<AuditRecord, 'id'>
  /** Tools the user wrote in the app (run in QuickJS), exported and imported as JSON. */
  userTools!: EntityTable<UserToolRecord, 'id'>
  /** The words of each message, for `search_chat_history` (`search-index.ts`). */
  searchIndex!: EntityTable<SearchIndexRow, 'id'>
  /** Every word of the search index once. */
  searchWords!: EntityTable<SearchWordRow, 'word'>
  /** Named bundles of system prompt, model, tools and parameters (`presets.ts`). */
  presets!: EntityTable<PresetRecord, 'id'>
  /** Images and files sent with user messages, as blobs (`attachments.ts`). */
  attachments!: EntityTable<AttachmentRecord, 'id'>
  /** The passages of the documents attached to chats, for `search_documents` (`document-passages.ts`). */
  documentPassages!: EntityTable<DocumentPassageRecord, 'id'>
  /** Records written here that the server has not confirmed yet, one row per record (`sync/sync-outbox.ts`). */
  syncOutbox!: EntityTable<SyncOutboxRow, 'key'>
  /** Sync's own state: the server cursor, the upload consent. */
  syncState!: EntityTable<SyncStateRow, 'key'>
  /** The server job each server-run chat follows, and the last of its events recorded here (`server-jobs.ts`). */
  serverJobs!: EntityTable<ServerJobRecord, 'threadId'>

  constructor(name = 'plugboard', options: PlugboardDatabaseOptions = {}) {
    // Pass only what was given: an explicit `undefined` would override Dexie's own defaults.
    const dependencies: PlugboardDatabaseOptions = {}
    if (options.indexedDB) dependencies.indexedDB = options.indexedDB
    if (options.IDBKeyRange) dependencies.IDBKeyRange = options.IDBKeyRange
    super(name, dependencies)

    // Schema versions are only ever appended, never edited: users have data written by every earlier version.
    // To change the schema add `this.version(2).stores({...}).upgrade(tx => ...)` below and keep version 1 as is.
    this.version(1).stores({
      threads: 'id, updatedAt, createdAt',
      messages: 'id, threadId, [threadId+seq], createdAt, status',
    })
    // Version 2: the audit log and the tools written in the app. Threads gain optional fields (no new index).
    this.version(2).stores({
      audit: 'id, toolName, status, startedAt, threadId',
      userTools: 'id, &name, updatedAt',
    })
    // Version 3: the search index. Existing messages are indexed by the first search, not during the upgrade.
    this.version(3).stores({ searchIndex: 'id, *words', searchWords: 'word' })
    // Version 4: tool rows by `toolStatus`, so start-up finds the runs a reload cut off without reading every row.
    this.version(4).stores({ messages: 'id, threadId, [threadId+seq], createdAt, status, toolStatus' })
    // Version 5: chats are trees. Each row names its parent, a thread its active leaf, and the rows on the path to
    // that leaf carry `onPath`, so the message list pages through the active path by index, like a flat chat.
    this.version(5).stores({ messages: 'id, threadId, [threadId+seq], [threadId+onPath+seq], parentId, createdAt, status, toolStatus' })
      .upgrade(linkRowsInOrder)
    // Version 6: presets. Threads gain optional fields (system prompt, parameters, model; no new index).
    this.version(6).stores({ presets: 'id, updatedAt' })
    // Version 7: attachments. User rows gain an optional `attachments` list (no new message index).
    this.version(7).stores({ attachments: 'id, threadId, messageId, [threadId+kind]' })
    // Version 8: the passages of attached documents, by document and by chat (the chat's index is built from them).
    this.version(8).stores({ documentPassages: 'id, attachmentId, threadId' })
    // Version 9: sync. The outbox by record and in clock order; sync's own state by key.
    this.version(9).stores({ syncOutbox: 'key, hlc', syncState: 'key' })
    // Version 10: the server job a chat follows leaves the thread row for a table of its own, so the checkpoints of
    // a server-run reply (4 a second) neither re-read the sidebar nor send the chat to sync again.
    this.version(10).stores({ serverJobs: 'threadId' }).upgrade(moveServerJobsOffThreads)
    installSearchIndexHooks(this)
    installSyncOutbox(this)
  }
}

let current: PlugboardDatabase | undefined
let opening: Promise<PlugboardDatabase> | undefined

/**
 * The database every query uses. Call `openDatabase()` once at start-up (before the first query) so that this
 * returns the in-memory fallback when IndexedDB cannot be used.
 */
export function getDatabase(): PlugboardDatabase {
  current ??= new PlugboardDatabase()
  return current
}

/** Replaces the database every query uses (tests); `undefined` forgets it so the next call opens a new one. */
export function setDatabase(db: PlugboardDatabase | undefined): void {
  current = db
  opening = db ? Promise.resolve(db) : undefined
}

export interface OpenDatabaseOptions extends PlugboardDatabaseOptions {
  /** @default 'plugboard' */
  name?: string
  /** How long to wait for IndexedDB (another tab can block an upgrade) before falling back to memory. @default 8000 */
  openTimeoutMs?: number
}

/**
 * Opens the chats database once and makes it the one `getDatabase()` returns. When IndexedDB is missing or
 * cannot be opened (private mode, storage blocked, a blocked upgrade) the app keeps working on an in-memory
 * database with the same API, and `storageStatus` says why, so the UI can warn that chats will not survive the tab.
 */
export function openDatabase(options: OpenDatabaseOptions = {}): Promise<PlugboardDatabase> {
  opening ??= openWithFallback(options).then((db) => {
    current = db
    return db
  }, (error: unknown) => {
    opening = undefined
    throw error
  })
  return opening
}

async function openWithFallback(options: OpenDatabaseOptions): Promise<PlugboardDatabase> {
  const { name = 'plugboard', openTimeoutMs = 8000 } = options
  const factory = options.indexedDB ?? readGlobal('indexedDB') as IDBFactory | undefined
  const keyRange = options.IDBKeyRange ?? readGlobal('IDBKeyRange') as typeof IDBKeyRange | undefined
  let reason: string
  if (!factory || !keyRange) {
    reason = 'IndexedDB is not available in this browser'
  }
  else {
    const db = new PlugboardDatabase(name, { indexedDB: factory, IDBKeyRange: keyRange })
    try {
      await withTimeout(db.open(), openTimeoutMs, () => db.close())
      storageStatus.value = { persistent: true }
      return db
    }
    catch (error) {
      db.close()
      reason = describeOpenFailure(error)
    }
  }
  try {
    const memory = await import('fake-indexeddb')
    const db = new PlugboardDatabase(name, { indexedDB: new memory.IDBFactory(), IDBKeyRange: memory.IDBKeyRange })
    await db.open()
    storageStatus.value = { persistent: false, reason }
    return db
  }
  catch (error) {
    throw new StorageError(`Could not open any chat storage (${reason}).`, { operation: 'open database', cause: error })
  }
}

/** Reading `indexedDB` itself throws a SecurityError in sandboxed frames and with storage blocked. */
function readGlobal(key: 'indexedDB' | 'IDBKeyRange'): unknown {
  try {
    return (globalThis as Record<string, unknown>)[key]
  }
  catch {
    return undefined
  }
}

class OpenTimeoutError extends Error {
  override readonly name = 'OpenTimeoutError'
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout()
      reject(new OpenTimeoutError(`IndexedDB did not open within ${ms} ms`))
    }, ms)
    promise.then(
      (value) => { clearTimeout(timer); resolve(value) },
      (error: unknown) => { clearTimeout(timer); reject(error) },
    )
  })
}

/** A reason a user can read in "Chats are kept in memory only (<reason>)". */
function describeOpenFailure(error: unknown): string {
  const inner = (error as { inner?: unknown })?.inner
  const name = [error, inner].map(value => (value as { name?: string })?.name).find(value => value && value !== 'OpenFailedError')
  switch (name) {
    case 'OpenTimeoutError': return 'the database is blocked by another tab'
    case 'SecurityError': return 'the browser does not allow storage on this page'
    case 'InvalidStateError': return 'storage is disabled, as in private browsing'
    case 'QuotaExceededError': return 'the browser storage is full'
    case 'VersionError': return 'the stored chats were written by a newer version of Plugboard'
    default: return `IndexedDB could not be opened: ${error instanceof Error ? error.message : String(error)}`
  }
}
