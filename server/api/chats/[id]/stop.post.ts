import { chatJobStore } from '../../../utils/background-jobs/store/chat-job-store'
import { requireOwnChatJob } from '../../../utils/background-jobs/control/job-access'
import { useJobControl } from '../../../utils/background-jobs/control/job-control'
import { requestJobStop } from '../../../utils/background-jobs/control/job-stop'

/**
 * POST /api/chats/:id/stop: Stop from any tab of the session, on any instance (with Redis the instance running the
 * job hears it through the job control). The loop ends 'aborted' and the stream says so.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const stopped = await requestJobStop(chatJobStore(), useJobControl(), job)
  return { id: job.id, stopped }
})
