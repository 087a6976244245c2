import { z } from 'zod'
import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { TOOL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { requireOwnChatJob } from '../../../utils/background-jobs/control/job-access'
import { isFinishedJob } from '../../../utils/background-jobs/store/job-retention'
import { useJobControl } from '../../../utils/background-jobs/control/job-control'
import { answerBrowserCall } from '../../../utils/background-jobs/runner/running-jobs'
import type { BrowserToolAnswer } from '../../../utils/background-jobs/runner/running-jobs'

const answerSchema = z.object({
  callId: z.string().min(1).max(200),
  content: z.string().optional(),
  error: z.string().max(4096).optional(),
  /** The user pressed Cancel on the waiting card: the call ends 'cancelled' and the chat goes on. */
  cancelled: z.literal(true).optional(),
})

const CANCELLED_BY_USER = 'Cancelled by the user while it waited for this browser.'

/**
 * POST /api/chats/:id/tool-results `{ callId, content }`, `{ callId, error }` or `{ callId, cancelled: true }`: a tab
 * of the session ran (or cancelled) the browser-only tool a paused job waits for, on whichever instance runs it.
 * The first answer wins; a later one (another tab) gets 409.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const parsed = answerSchema.safeParse(await readBoundedJson(event, TOOL_BODY_LIMIT_BYTES))
  const given = parsed.success ? [parsed.data.content, parsed.data.error, parsed.data.cancelled].filter(value => value !== undefined).length : 0
  if (!parsed.success || given !== 1) {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The body must be { callId, content }, { callId, error } or { callId, cancelled: true }.' })
  }
  const { callId, content, error, cancelled } = parsed.data
  const answer: BrowserToolAnswer = cancelled ? { ok: false, message: CANCELLED_BY_USER, cancelled: true }
    : error !== undefined ? { ok: false, message: error } : { ok: true, content: content! }
  const control = useJobControl()
  const conflict = () => createError({ statusCode: 409, statusMessage: 'Conflict', message: 'This call is not waiting for an answer.' })
  if (!control.shared) {
    if (!answerBrowserCall(job.id, callId, answer)) throw conflict()
    return { id: job.id, callId }
  }
  // On Redis the job may run on another instance: the first answer claims the call, then goes to its runner.
  if (isFinishedJob(job) || !(await control.claimOnce(`answer:${job.id}:${callId}`))) throw conflict()
  await control.send({ type: 'browser-answer', jobId: job.id, callId, answer })
  return { id: job.id, callId }
})
