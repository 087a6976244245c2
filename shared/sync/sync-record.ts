/**
 * What devices and the server exchange: one change per record, naming its kind, its id, the clock of the write and
 * either the record's body or a tombstone. A change is its own id: (kind, id, hlc) is written once, so sending it
 * twice does nothing the second time.
 */

/** The kinds of records that sync. Attachments (blobs) do not sync yet: a message names them, the blob stays local. */
export const SYNC_KINDS = ['thread', 'message', 'preset'] as const
export type SyncKind = typeof SYNC_KINDS[number]

export interface SyncChange {
  kind: SyncKind
  id: string
  /** The hybrid logical clock of the write (`hlc.ts`). */
  hlc: string
  /** A tombstone: the record was deleted. Its body is null. */
  deleted: boolean
  body: Record<string, unknown> | null
}

/** A change as the server stores and returns it: with its place in the owner's change sequence. */
export interface SyncedChange extends SyncChange {
  seq: number
}

/** Fields of a row that describe this device only and never travel. */
export const LOCAL_ONLY_FIELDS: Record<SyncKind, readonly string[]> = {
  // A server-run chat is followed by the tab that started it; another device would follow it twice. Browsers keep
  // it in a table of its own now (`serverJobs`); a tab from before that still writes it on the thread.
  thread: ['serverJob'],
  // The marks of the active path are derived from the thread's `activeLeafId` on each device.
  message: ['onPath'],
  preset: [],
}

/** The body of a row as it travels: local-only fields removed. */
export function syncBodyOf(kind: SyncKind, row: Record<string, unknown>): Record<string, unknown> {
  const body = { ...row }
  for (const field of LOCAL_ONLY_FIELDS[kind]) delete body[field]
  return body
}

/** The key of a record across kinds. */
export function recordKey(kind: SyncKind, id: string): string {
  return `${kind}:${id}`
}
