import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
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

export const databaseSchema = { workflows }
