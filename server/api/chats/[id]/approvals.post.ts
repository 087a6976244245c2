import { z } from 'zod'
import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { TOOL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { requireOwnChatJob } from '../../../utils/background-jobs/control/job-access'
import { answerJobApproval } from '../../../utils/background-jobs/runner/pending-approvals'
import { isFinishedJob } from '../../../utils/background-jobs/store/job-retention'
import { useJobControl } from '../../../utils/background-jobs/control/job-control'
import { parseToolArguments } from '#shared/tools/parse-tool-arguments'
import { codedError } from '../../../utils/http/user-error'

const answerSchema = z.strictObject({
  callId: z.string().min(1).max(200),
  decision: z.enum(['allowed-once', 'always-allowed', 'denied']),
  // the tool's arguments as the user edited them: checked against the tool's schema before they run
  arguments: z.string().max(TOOL_BODY_LIMIT_BYTES).optional(),
})

/**
 * POST /api/chats/:id/approvals `{ callId, decision, arguments? }`: a tab of the session answers a call the job
 * waits on (Allow once / Always allow / Deny), on whichever instance runs it. The first answer wins; a later one
 * (another tab) gets 409. Edited arguments that break the tool's schema get 400 from the runner's instance.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const parsed = answerSchema.safeParse(await readBoundedJson(event, TOOL_BODY_LIMIT_BYTES))
  if (!parsed.success) {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The body must be { callId, decision: "allowed-once" | "always-allowed" | "denied", arguments? }.' })
  }
  const { callId, decision, arguments: argumentsText } = parsed.data
  if (argumentsText !== undefined) {
    const read = parseToolArguments(argumentsText)
    if (!read.ok) throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: `The edited arguments cannot be used: ${read.error}` })
  }
  const answer = { decision, ...(argumentsText !== undefined && { arguments: argumentsText }) }
  const conflict = () => createError({ statusCode: 409, statusMessage: 'Conflict', message: 'This call is not waiting for an answer.' })
  // Here first: the runner checks edited arguments against the tool's schema and says why it refuses them.
  const answered = answerJobApproval(job.id, callId, answer)
  if (!answered.ok && answered.reason === 'invalid') throw codedError(400, 'Bad Request', answered.text)
  const control = useJobControl()
  if (answered.ok) {
    if (control.shared) await control.claimOnce(`approval:${job.id}:${callId}`)
    return { id: job.id, callId, decision }
  }
  // On Redis the job may run on another instance: the first answer claims the call, then goes to its runner.
  if (!control.shared || isFinishedJob(job) || !(await control.claimOnce(`approval:${job.id}:${callId}`))) throw conflict()
  await control.send({ type: 'approval-answer', jobId: job.id, callId, answer })
  return { id: job.id, callId, decision }
})
