import { randomUUID } from 'node:crypto'
import { readBoundedJson } from '../../utils/http/read-bounded-body'
import { SMALL_BODY_LIMIT_BYTES } from '../../utils/http/request-limits'
import { requireOwner } from '../../utils/accounts/request-owner'
import { useWorkflowStore } from '../../utils/workflows/use-workflow-store'
import { invalidWorkflow } from '../../utils/workflows/workflow-access'
import { MAX_WORKFLOWS_PER_SESSION, workflowInputSchema } from '../../utils/workflows/workflow-types'
import type { Workflow } from '../../utils/workflows/workflow-types'
import { userError } from '../../utils/http/user-error'

/** POST /api/workflows `{ name, systemPrompt, model, tools, firstMessage? }`: saves a workflow for this session (201). */
export default defineEventHandler(async (event) => {
  const sessionId = (await requireOwner(event)).ownerId
  const parsed = workflowInputSchema.safeParse(await readBoundedJson(event, SMALL_BODY_LIMIT_BYTES))
  if (!parsed.success) throw invalidWorkflow(parsed.error.issues)
  const now = Date.now()
  const workflow: Workflow = { ...parsed.data, id: randomUUID(), sessionId, createdAt: now, updatedAt: now }
  if (!(await useWorkflowStore().create(workflow, MAX_WORKFLOWS_PER_SESSION))) {
    throw userError(409, 'Conflict', 'server.workflow.tooMany', { max: MAX_WORKFLOWS_PER_SESSION })
  }
  setResponseStatus(event, 201)
  return workflow
})
