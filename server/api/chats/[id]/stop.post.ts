import { chatJobStore } from '../../../utils/background-jobs/chat-job-store'
import { requireOwnChatJob } from '../../../utils/background-jobs/job-access'
import { abortRunningJob } from '../../../utils/background-jobs/running-jobs'

/** POST /api/chats/:id/stop: Stop from any tab of the session. The loop ends 'aborted' and the stream says so. */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  const stopped = abortRunningJob(job.id)
  // A job no process runs any more (its process restarted) is only marked.
  if (!stopped && (job.status === 'running' || job.status === 'paused' || job.status === 'queued')) await chatJobStore().updateJob(job.id, { status: 'stopped' })
  return { id: job.id, stopped }
})
