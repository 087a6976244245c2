import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { SMALL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { useWorkflowStore } from '../../../utils/workflows/use-workflow-store'
import { invalidWorkflow, requireOwnWorkflow } from '../../../utils/workflows/workflow-access'
import { workflowInputSchema } from '../../../utils/workflows/workflow-types'
import type { Workflow } from '../../../utils/workflows/workflow-types'

/** PUT /api/workflows/:id: replaces the workflow's recipe (the whole body, as on create). */
export default defineEventHandler(async (event) => {
  const current = await requireOwnWorkflow(event)
  const parsed = workflowInputSchema.safeParse(await readBoundedJson(event, SMALL_BODY_LIMIT_BYTES))
  if (!parsed.success) throw invalidWorkflow(parsed.error.issues)
  const workflow: Workflow = { ...parsed.data, id: current.id, sessionId: current.sessionId, createdAt: current.createdAt, updatedAt: Date.now() }
  await useWorkflowStore().put(workflow)
  return workflow
})
