import { requireOwner } from '../../utils/accounts/request-owner'
import { useWorkflowStore } from '../../utils/workflows/use-workflow-store'

/** GET /api/workflows: the session's workflows, newest first. */
export default defineEventHandler(async (event) => {
  return { workflows: await useWorkflowStore().list((await requireOwner(event)).ownerId) }
})
