import { randomUUID } from 'node:crypto'
import { readBoundedJson } from '../../utils/http/read-bounded-body'
import { SMALL_BODY_LIMIT_BYTES } from '../../utils/http/request-limits'
import { requireSessionId } from '../../utils/background-jobs/control/job-access'
import { useWorkflowStore } from '../../utils/workflows/use-workflow-store'
import { invalidWorkflow } from '../../utils/workflows/workflow-access'
import { MAX_WORKFLOWS_PER_SESSION, workflowInputSchema } from '../../utils/workflows/workflow-types'
import type { Workflow } from '../../utils/workflows/workflow-types'

/** POST /api/workflows `{ name, systemPrompt, model, tools, firstMessage? }`: saves a workflow for this session (201). */
export default defineEventHandler(async (event) => {
  const sessionId = await requireSessionId(event)
  const parsed = workflowInputSchema.safeParse(await readBoundedJson(event, SMALL_BODY_LIMIT_BYTES))
  if (!parsed.success) throw invalidWorkflow(parsed.error.issues)
  const now = Date.now()
  const workflow: Workflow = { ...parsed.data, id: randomUUID(), sessionId, createdAt: now, updatedAt: now }
  if (!(await useWorkflowStore().create(workflow, MAX_WORKFLOWS_PER_SESSION))) {
    throw createError({ statusCode: 409, statusMessage: 'Conflict', message: `You have ${MAX_WORKFLOWS_PER_SESSION} workflows already: delete one first.` })
  }
  setResponseStatus(event, 201)
  return workflow
})
