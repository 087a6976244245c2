import { Dexie } from 'dexie'
import type { DBCore, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction } from 'dexie'
import { createHlcClock } from '#shared/sync/hlc'
import { recordKey } from '#shared/sync/sync-record'
import type { SyncKind } from '#shared/sync/sync-record'

/** One record whose latest local write the server has not confirmed: the push reads the row itself when it sends. */
export interface SyncOutboxRow {
  /** `kind:id` */
  key: string
  kind: SyncKind
  id: string
  /** The clock of the latest local write. */
  hlc: string
}

export interface SyncStateRow {
  /** The server cursor, the upload consent, the files still to fetch (`wanted-files.ts`). */
  key: 'cursor' | 'consent' | 'wantedFiles'
  value: number | string | readonly object[]
}

/** The tables that sync, by the kind of record they hold. */
export const SYNCED_TABLES: Readonly<Record<string, SyncKind>> = { threads: 'thread', messages: 'message', presets: 'preset' }

/** Where the browser remembers that it syncs, read before the database opens so no write is missed. */
export const SYNC_RECORDING_KEY = 'plugboard:sync-recording'

/** This page's clock: every local write of a synced record is stamped with it. */
export const deviceClock = createHlcClock(randomNode())

/** Whether local writes go into the outbox (once the browser syncs), and who hears of them. */
export const syncRecording: { enabled: boolean, onRecorded?: () => void } = { enabled: readRecordingFlag() }

/** Turns recording on or off for this browser, for good. */
export function setSyncRecording(enabled: boolean): void {
  syncRecording.enabled = enabled
  try {
    if (enabled) localStorage.setItem(SYNC_RECORDING_KEY, '1')
    else localStorage.removeItem(SYNC_RECORDING_KEY)
  }
  catch {
    // Storage blocked: recording lasts for this page.
  }
}

/**
 * Puts every write to a synced table into `syncOutbox`, in the same transaction as the write, through a Dexie
 * middleware: no query of the app has to remember sync, and a write that rolls back leaves no outbox row. A
 * transaction that names `syncState` is sync applying the server's changes: it is not recorded again.
 */
export function installSyncOutbox(db: Dexie): void {
  const recorded = new WeakSet<DBCoreTransaction>()
  db.use({
    stack: 'dbcore',
    name: 'SyncOutbox',
    create(down: DBCore): DBCore {
      return {
        ...down,
        transaction(stores, mode, options) {
          const records = syncRecording.enabled && mode === 'readwrite' && !stores.includes('syncState') && stores.some(name => name in SYNCED_TABLES)
          const transaction = down.transaction(records && !stores.includes('syncOutbox') ? [...stores, 'syncOutbox'] : stores, mode, options)
          if (records) recorded.add(transaction)
          return transaction
        },
        table(name) {
          const table = down.table(name)
          const kind = SYNCED_TABLES[name]
          if (!kind) return table
          return {
            ...table,
            async mutate(request) {
              if (!recorded.has(request.trans)) return table.mutate(request)
              // The middlewares below read Dexie's zone (the transaction) when called: every call after an await
              // goes back into the zone the write was made in.
              const zone = zoneApi.PSD
              const inZone = <T>(call: () => T): T => zoneApi.usePSD(zone, call)
              const ids = await changedIds(table, request, inZone)
              const result = await inZone(() => table.mutate(request))
              if (ids.length > 0) {
                await inZone(() => down.table('syncOutbox').mutate({
                  type: 'put',
                  trans: request.trans,
                  values: ids.map((id): SyncOutboxRow => ({ key: recordKey(kind, id), kind, id, hlc: deviceClock.now() })),
                }))
                queueMicrotask(() => syncRecording.onRecorded?.())
              }
              return result
            },
          }
        },
      }
    },
  })
}

/** Dexie's zone ("PSD"), public on Dexie.Promise but not in its types. */
const zoneApi = Dexie.Promise as unknown as { PSD: unknown, usePSD: <T>(zone: unknown, call: () => T) => T }

async function changedIds(table: DBCoreTable, request: DBCoreMutateRequest, inZone: <T>(call: () => T) => T): Promise<string[]> {
  switch (request.type) {
    case 'add':
    case 'put':
      return (request.keys ?? (request.values as Array<{ id?: unknown }>).map(value => value?.id)).filter((id): id is string => typeof id === 'string')
    case 'delete':
      return request.keys.filter((key): key is string => typeof key === 'string')
    case 'deleteRange': {
      const found = await inZone(() => table.query({ trans: request.trans, query: { index: table.schema.primaryKey, range: request.range }, values: false }))
      return (found.result as unknown[]).filter((key): key is string => typeof key === 'string')
    }
  }
}

function randomNode(): string {
  return (globalThis.crypto?.randomUUID?.() ?? Math.random().toString(36).slice(2)).replaceAll('-', '').slice(0, 12)
}

function readRecordingFlag(): boolean {
  try {
    return globalThis.localStorage?.getItem(SYNC_RECORDING_KEY) === '1'
  }
  catch {
    return false
  }
}
