import { z } from 'zod'
import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { TOOL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { requireOwnChatJob } from '../../../utils/background-jobs/control/job-access'
import { answerJobQuestion } from '../../../utils/background-jobs/runner/job-questions'
import { isFinishedJob } from '../../../utils/background-jobs/store/job-retention'
import { useJobControl } from '../../../utils/background-jobs/control/job-control'
import { codedError } from '../../../utils/http/user-error'

const answerSchema = z.strictObject({
  callId: z.string().min(1).max(200),
  action: z.enum(['accept', 'decline', 'cancel']),
  // the form's fields as the user filled them: checked against the form the MCP server asked for
  content: z.record(z.string().max(200), z.unknown()).optional(),
})

/**
 * POST /api/chats/:id/questions `{ callId, action, content? }`: a tab of the session answers the question an MCP
 * server asked during a call of the job (Accept with the form's content, Decline, Cancel), on whichever instance
 * runs it. The first answer wins; a later one (another tab) gets 409. Content that does not fit the form gets 400
 * from the runner's instance, and the question keeps waiting.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const parsed = answerSchema.safeParse(await readBoundedJson(event, TOOL_BODY_LIMIT_BYTES))
  if (!parsed.success || (parsed.data.content !== undefined && parsed.data.action !== 'accept')) {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The body must be { callId, action: "accept" | "decline" | "cancel", content? } (content only with accept).' })
  }
  const answer = parsed.data
  const conflict = () => createError({ statusCode: 409, statusMessage: 'Conflict', message: 'This call is not waiting for an answer.' })
  const answered = answerJobQuestion(job.id, answer)
  if (!answered.ok && answered.reason === 'invalid') throw codedError(400, 'Bad Request', answered.text)
  const control = useJobControl()
  if (answered.ok) {
    if (control.shared) await control.claimOnce(`question:${job.id}:${answer.callId}`)
    return { id: job.id, callId: answer.callId, action: answer.action }
  }
  // On Redis the job may run on another instance: the first answer claims the question, then goes to its runner.
  if (!control.shared || isFinishedJob(job) || !(await control.claimOnce(`question:${job.id}:${answer.callId}`))) throw conflict()
  await control.send({ type: 'question-answer', jobId: job.id, answer })
  return { id: job.id, callId: answer.callId, action: answer.action }
})
