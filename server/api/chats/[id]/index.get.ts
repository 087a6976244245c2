import { requireOwnChatJob } from '../../../utils/background-jobs/job-access'

/** GET /api/chats/:id: the job's status, so a reopened tab knows whether the reply still streams. */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  return { id: job.id, threadId: job.threadId, status: job.status, error: job.error }
})
