import { and, eq, inArray, sql } from 'drizzle-orm'
import { MAX_ACCOUNT_BLOB_BYTES, MAX_BLOB_BYTES } from '#shared/sync/sync-limits'
import type { Database } from '../database/open-database'
import { syncBlobs } from '../database/database-schema'
import type { CodedText } from '#shared/errors/coded-text'
import { serverText } from '#shared/errors/server-messages'

export interface SyncBlobCaps {
  /** Bytes of one file. */
  maxBlobBytes: number
  /** Bytes of all files of one owner. */
  maxOwnerBytes: number
}

export const DEFAULT_SYNC_BLOB_CAPS: SyncBlobCaps = { maxBlobBytes: MAX_BLOB_BYTES, maxOwnerBytes: MAX_ACCOUNT_BLOB_BYTES }

/** A file refused by a cap: the message that names it still syncs, the device says which file stayed behind. */
export class SyncBlobTooLargeError extends Error {
  /** The message as a code, for the route to send. */
  readonly text: CodedText
  constructor(readonly limit: 'file' | 'account', readonly max: number) {
    const text = serverText(limit === 'file' ? 'server.sync.fileTooLarge' : 'server.sync.filesTooLarge', { megabytes: Math.round(max / 1024 / 1024) })
    super(text.message)
    this.text = text
    this.name = 'SyncBlobTooLargeError'
  }
}

export interface StoredBlob {
  mime: string
  data: Buffer
}

/**
 * The files of synced messages in the server's database (bytea), always read and written under their owner: an id
 * of another owner is simply not found. Writing an id twice keeps the first file (an attachment never changes).
 */
export function createSyncBlobStore(db: Database | PromiseLike<Database>, caps: SyncBlobCaps = DEFAULT_SYNC_BLOB_CAPS) {
  return {
    async put(ownerId: string, blob: { id: string, messageId: string, mime: string, data: Buffer }): Promise<void> {
      if (blob.data.length > caps.maxBlobBytes) throw new SyncBlobTooLargeError('file', caps.maxBlobBytes)
      await (await db).transaction(async (transaction) => {
        await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sync-blobs:${ownerId}`}, 0))`)
        const [held] = await transaction.select({ id: syncBlobs.id }).from(syncBlobs).where(and(eq(syncBlobs.ownerId, ownerId), eq(syncBlobs.id, blob.id)))
        if (held) return
        const [usage] = await transaction.select({ bytes: sql<string | number | null>`sum(${syncBlobs.bytes})` }).from(syncBlobs).where(eq(syncBlobs.ownerId, ownerId))
        if (Number(usage?.bytes ?? 0) + blob.data.length > caps.maxOwnerBytes) throw new SyncBlobTooLargeError('account', caps.maxOwnerBytes)
        await transaction.insert(syncBlobs).values({ ownerId, id: blob.id, messageId: blob.messageId, mime: blob.mime, bytes: blob.data.length, data: blob.data })
      })
    },

    /** The owner's file, or undefined (never another owner's). */
    async get(ownerId: string, id: string): Promise<StoredBlob | undefined> {
      const [row] = await (await db).select({ mime: syncBlobs.mime, data: syncBlobs.data }).from(syncBlobs).where(and(eq(syncBlobs.ownerId, ownerId), eq(syncBlobs.id, id)))
      return row
    },

    /** Removes the files of these messages (deleted branches and chats); resolves with how many went. */
    async deleteOfMessages(ownerId: string, messageIds: readonly string[]): Promise<number> {
      if (messageIds.length === 0) return 0
      const removed = await (await db).delete(syncBlobs)
        .where(and(eq(syncBlobs.ownerId, ownerId), inArray(syncBlobs.messageId, [...messageIds])))
        .returning({ id: syncBlobs.id })
      return removed.length
    },
  }
}

export type SyncBlobStore = ReturnType<typeof createSyncBlobStore>
