import { useWorkflowStore } from '../../../utils/workflows/use-workflow-store'
import { requireOwnWorkflow } from '../../../utils/workflows/workflow-access'

/** DELETE /api/workflows/:id (its past runs' chats stay). */
export default defineEventHandler(async (event) => {
  const workflow = await requireOwnWorkflow(event)
  await useWorkflowStore().remove(workflow.sessionId, workflow.id)
  return { id: workflow.id, deleted: true }
})
