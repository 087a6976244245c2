import { requireOwnWorkflow } from '../../../utils/workflows/workflow-access'

/** GET /api/workflows/:id */
export default defineEventHandler(event => requireOwnWorkflow(event))
