import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '../database/open-database'
import { workflows } from '../database/database-schema'
import type { WorkflowStore } from './workflow-store'
import type { Workflow, WorkflowInput } from './workflow-types'

type WorkflowRow = typeof workflows.$inferSelect

function toWorkflow(row: WorkflowRow): Workflow {
  return { ...structuredClone(row.recipe), id: row.id, sessionId: row.ownerId, createdAt: row.createdAt, updatedAt: row.updatedAt }
}

function toRow(workflow: Workflow): WorkflowRow {
  const { id, sessionId, createdAt, updatedAt, ...recipe } = workflow
  return { id, ownerId: sessionId, recipe: recipe as WorkflowInput, createdAt, updatedAt }
}

/**
 * Workflows in the server's database (`workflows` table, one row each, owned by `owner_id` = the session). Every
 * write is one transaction; `create` counts and inserts under a per-owner lock, so the cap holds however many
 * requests or instances create at once. `db` may be the promise of the database still opening at start-up.
 */
export function createDatabaseWorkflowStore(db: Database | PromiseLike<Database>): WorkflowStore {
  return {
    async list(sessionId) {
      const rows = await (await db).select().from(workflows).where(eq(workflows.ownerId, sessionId)).orderBy(desc(workflows.createdAt), desc(workflows.id))
      return rows.map(toWorkflow)
    },
    async get(sessionId, id) {
      const [row] = await (await db).select().from(workflows).where(and(eq(workflows.id, id), eq(workflows.ownerId, sessionId)))
      return row ? toWorkflow(row) : undefined
    },
    async put(workflow) {
      const row = toRow(workflow)
      // An id another owner holds is left alone: a write only ever changes the writer's own row.
      await (await db).insert(workflows).values(row).onConflictDoUpdate({
        target: workflows.id,
        set: { recipe: row.recipe, updatedAt: row.updatedAt },
        setWhere: eq(workflows.ownerId, row.ownerId),
      })
    },
    async create(workflow, limit) {
      const row = toRow(workflow)
      return (await db).transaction(async (transaction) => {
        // Creates of one owner queue here until the transaction ends, so two never both see room for one.
        await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`workflows:${row.ownerId}`}, 0))`)
        const [held] = await transaction.select({ total: count() }).from(workflows).where(eq(workflows.ownerId, row.ownerId))
        if ((held?.total ?? 0) >= limit) return false
        await transaction.insert(workflows).values(row)
        return true
      })
    },
    async remove(sessionId, id) {
      const removed = await (await db).delete(workflows).where(and(eq(workflows.id, id), eq(workflows.ownerId, sessionId))).returning({ id: workflows.id })
      return removed.length > 0
    },
  }
}
