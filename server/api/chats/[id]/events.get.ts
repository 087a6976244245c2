import { chatJobStore } from '../../../utils/background-jobs/chat-job-store'
import { requireOwnChatJob } from '../../../utils/background-jobs/job-access'
import { pipeJobEvents } from '../../../utils/background-jobs/job-event-stream'

/**
 * GET /api/chats/:id/events: the job's LoopEvents as server-sent events, each with its id, from after
 * `Last-Event-ID` (a reconnect) or `?after=` (a reopened chat: the last id it recorded), live until the job ends.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const after = Number(getRequestHeader(event, 'last-event-id') ?? getQuery(event).after ?? 0)
  await pipeJobEvents(event, chatJobStore(), job.id, Number.isSafeInteger(after) && after > 0 ? after : 0)
})
