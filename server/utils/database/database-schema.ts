import { bigint, bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import type { ShareSnapshot } from '#shared/share/share-snapshot'
import type { WorkflowInput } from '../workflows/workflow-types'
import { accounts, invites, passkeys, webauthnChallenges } from './account-tables'

/**
 * The server's tables. Each row names its owner in `owner_id`: today the browser session's id (the only identity
 * there is); with accounts it becomes the account's id, so ownership checks and per-owner caps stay one column.
 * A change here needs a new migration in `migrations/` (never an edit of an applied one).
 */
export const workflows = pgTable('workflows', {
  id: text('id').primaryKey(),
  ownerId: text('owner_id').notNull(),
  /** The recipe as the user wrote it (checked by `workflowInputSchema` before it is stored). */
  recipe: jsonb('recipe').$type<WorkflowInput>().notNull(),
  /** Epoch ms, as the API returns them. */
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
}, table => [index('workflows_owner_created_idx').on(table.ownerId, table.createdAt)])

/**
 * Shared chats: a read-only snapshot per link. The link's token is kept only as its SHA-256 (`token_hash`); a
 * revoked link keeps its row (its page says so) but not its snapshot.
 */
export const shareLinks = pgTable('share_links', {
  id: text('id').primaryKey(),
  ownerId: text('owner_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  title: text('title').notNull(),
  /** Checked by `shareSnapshotSchema` before it is stored; null once revoked. */
  snapshot: jsonb('snapshot').$type<ShareSnapshot>(),
  /** The snapshot's size as uploaded. */
  bytes: integer('bytes').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  revokedAt: bigint('revoked_at', { mode: 'number' }),
}, table => [
  uniqueIndex('share_links_token_hash_idx').on(table.tokenHash),
  index('share_links_owner_created_idx').on(table.ownerId, table.createdAt),
])


/**
 * Synced chats: the winning change of each record a device pushed (`shared/sync`), a tombstone for a deleted one.
 * `seq` orders an owner's changes for devices that pull by cursor; a change that wins takes a new one.
 */
export const syncRecords = pgTable('sync_records', {
  ownerId: text('owner_id').notNull(),
  kind: text('kind').notNull(),
  id: text('id').notNull(),
  hlc: text('hlc').notNull(),
  deleted: boolean('deleted').notNull(),
  body: jsonb('body').$type<Record<string, unknown> | null>(),
  /** The body's size as JSON, for the per-owner cap. */
  bytes: integer('bytes').notNull(),
  seq: bigserial('seq', { mode: 'number' }).notNull(),
}, table => [primaryKey({ name: 'sync_records_pk', columns: [table.ownerId, table.kind, table.id] }), index('sync_records_owner_seq_idx').on(table.ownerId, table.seq)])

/** Each owner's totals in `sync_records`, kept in the push's transaction so the caps are one read. */
export const syncUsage = pgTable('sync_usage', {
  ownerId: text('owner_id').primaryKey(),
  records: integer('records').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
})

const bytea = customType<{ data: Buffer, driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands back a Uint8Array, node-postgres a Buffer.
  fromDriver: value => Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
})

/** The files of synced messages (images, documents), one row per attachment id and owner. */
export const syncBlobs = pgTable('sync_blobs', {
  ownerId: text('owner_id').notNull(),
  id: text('id').notNull(),
  /** The message that carries it: its tombstone removes the file. */
  messageId: text('message_id').notNull(),
  mime: text('mime').notNull(),
  bytes: integer('bytes').notNull(),
  data: bytea('data').notNull(),
}, table => [primaryKey({ name: 'sync_blobs_pk', columns: [table.ownerId, table.id] }), index('sync_blobs_owner_message_idx').on(table.ownerId, table.messageId)])

export const databaseSchema = { workflows, accounts, passkeys, invites, webauthnChallenges, shareLinks, syncRecords, syncUsage, syncBlobs }
