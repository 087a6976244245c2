import { requireSessionId } from '../../utils/background-jobs/control/job-access'
import { useWorkflowStore } from '../../utils/workflows/use-workflow-store'

/** GET /api/workflows: the session's workflows, newest first. */
export default defineEventHandler(async (event) => {
  return { workflows: await useWorkflowStore().list(await requireSessionId(event)) }
})
