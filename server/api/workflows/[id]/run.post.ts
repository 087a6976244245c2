import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { SMALL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { OPENROUTER_NO_KEY_MESSAGE } from '../../../utils/openrouter-proxy'
import { chatJobStore } from '../../../utils/background-jobs/store/chat-job-store'
import { useChatQueue } from '../../../utils/background-jobs/runner/chat-worker'
import { clientKeyOf, jobLimitResponse, useJobLimits } from '../../../utils/background-jobs/queue/job-admission-route'
import { startWorkflowRun, WorkflowRunError } from '../../../utils/workflows/background-execution'
import { invalidWorkflow, requireOwnWorkflow } from '../../../utils/workflows/workflow-access'
import { workflowRunSchema } from '../../../utils/workflows/workflow-types'
import { isDemoModel } from '../../../utils/demo-model/demo-chat-model'
import { codedError, userError } from '../../../utils/http/user-error'

/**
 * POST /api/workflows/:id/run `{ threadId, message? }`: runs the workflow as a background chat on the server's key,
 * or on the offline demo model without one (201 `{ id, threadId }`); its chat is read like any server-run chat, from GET /api/chats/:id/events.
 */
export default defineEventHandler(async (event) => {
  const workflow = await requireOwnWorkflow(event)
  const parsed = workflowRunSchema.safeParse(await readBoundedJson(event, SMALL_BODY_LIMIT_BYTES))
  if (!parsed.success) throw invalidWorkflow(parsed.error.issues)
  // The offline demo runs without a key; every other model needs the server's.
  if (!isDemoModel(workflow.model) && !String(useRuntimeConfig(event).openrouterApiKey ?? '').trim()) throw userError(503, OPENROUTER_NO_KEY_MESSAGE, 'server.noOpenRouterKey')
  try {
    const job = await startWorkflowRun(chatJobStore(), useChatQueue(), workflow, { sessionId: workflow.sessionId, ...parsed.data, clientKey: clientKeyOf(event), limits: useJobLimits(event) })
    setResponseStatus(event, 201)
    return { id: job.id, threadId: parsed.data.threadId }
  }
  catch (error) {
    if (error instanceof WorkflowRunError) throw codedError(400, 'Bad Request', error.text)
    throw jobLimitResponse(error)
  }
})
