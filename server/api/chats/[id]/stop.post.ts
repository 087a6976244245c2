import { chatJobStore } from '../../../utils/background-jobs/chat-job-store'
import { requireOwnChatJob } from '../../../utils/background-jobs/job-access'
import { useJobControl } from '../../../utils/background-jobs/job-control'
import { requestJobStop } from '../../../utils/background-jobs/job-stop'

/**
 * POST /api/chats/:id/stop: Stop from any tab of the session, on any instance (with Redis the instance running the
 * job hears it through the job control). The loop ends 'aborted' and the stream says so.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const stopped = await requestJobStop(chatJobStore(), useJobControl(), job)
  return { id: job.id, stopped }
})
