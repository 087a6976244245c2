import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import type { WorkflowInput } from '../workflows/workflow-types'

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

export const databaseSchema = { workflows, syncRecords, syncUsage }
