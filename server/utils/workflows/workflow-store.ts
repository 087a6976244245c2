import type { Workflow } from './workflow-types'

/**
 * Where workflows live, per session: the server's database (`database-workflow-store.ts`). Reads copy, so a caller
 * never changes a stored workflow by accident.
 */
export interface WorkflowStore {
  /** A session's workflows, newest first. */
  list: (sessionId: string) => Promise<Workflow[]>
  get: (sessionId: string, id: string) => Promise<Workflow | undefined>
  /** Saves a new workflow or a new version of one; a workflow of another session with the same id is left alone. */
  put: (workflow: Workflow) => Promise<void>
  /** Saves a new workflow unless its session holds `limit` already (false), checked and written as one step. */
  create: (workflow: Workflow, limit: number) => Promise<boolean>
  /** False when there was no such workflow. */
  remove: (sessionId: string, id: string) => Promise<boolean>
}
