import { z } from 'zod'
import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { TOOL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { requireOwnChatJob } from '../../../utils/background-jobs/job-access'
import { answerJobApproval } from '../../../utils/background-jobs/pending-approvals'

const answerSchema = z.strictObject({
  callId: z.string().min(1).max(200),
  decision: z.enum(['allowed-once', 'always-allowed', 'denied']),
  // the tool's arguments as the user edited them: checked against the tool's schema before they run
  arguments: z.string().max(TOOL_BODY_LIMIT_BYTES).optional(),
})

/**
 * POST /api/chats/:id/approvals `{ callId, decision, arguments? }`: a tab of the session answers a call the job
 * waits on (Allow once / Always allow / Deny). The first answer wins; a later one (another tab) gets 409.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const parsed = answerSchema.safeParse(await readBoundedJson(event, TOOL_BODY_LIMIT_BYTES))
  if (!parsed.success) {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The body must be { callId, decision: "allowed-once" | "always-allowed" | "denied", arguments? }.' })
  }
  const { callId, decision, arguments: argumentsText } = parsed.data
  const answered = answerJobApproval(job.id, callId, { decision, ...(argumentsText !== undefined && { arguments: argumentsText }) })
  if (!answered.ok && answered.reason === 'invalid') throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: answered.message })
  if (!answered.ok) throw createError({ statusCode: 409, statusMessage: 'Conflict', message: 'This call is not waiting for an answer.' })
  return { id: job.id, callId, decision }
})
