import { requireOwnChatJob } from '../../../utils/background-jobs/control/job-access'
import { pendingJobQuestions } from '../../../utils/background-jobs/runner/job-questions'

/**
 * GET /api/chats/:id/questions: the MCP servers' questions the job waits on, as its event stream announced them, for
 * a tab that (re)opened the chat after they were asked. Known to the instance that runs the job.
 */
export default defineEventHandler(async (event) => {
  const job = await requireOwnChatJob(event)
  return { questions: pendingJobQuestions(job.id) }
})
