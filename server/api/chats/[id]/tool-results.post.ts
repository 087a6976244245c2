import { z } from 'zod'
import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { TOOL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { requireOwnChatJob } from '../../../utils/background-jobs/job-access'
import { answerBrowserCall } from '../../../utils/background-jobs/running-jobs'

const answerSchema = z.object({
  callId: z.string().min(1).max(200),
  content: z.string().optional(),
  error: z.string().max(4096).optional(),
})

/**
 * POST /api/chats/:id/tool-results `{ callId, content }` or `{ callId, error }`: a tab of the session ran the
 * browser-only tool a paused job waits for. The first answer wins; a later one (another tab) gets 409.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const parsed = answerSchema.safeParse(await readBoundedJson(event, TOOL_BODY_LIMIT_BYTES))
  if (!parsed.success || (parsed.data.content === undefined) === (parsed.data.error === undefined)) {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The body must be { callId, content } or { callId, error }.' })
  }
  const { callId, content, error } = parsed.data
  const answer = error !== undefined ? { ok: false as const, message: error } : { ok: true as const, content: content! }
  if (!answerBrowserCall(job.id, callId, answer)) throw createError({ statusCode: 409, statusMessage: 'Conflict', message: 'This call is not waiting for an answer.' })
  return { id: job.id, callId }
})
