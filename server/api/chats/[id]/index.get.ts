import { chatJobStore } from '../../../utils/background-jobs/store/chat-job-store'
import { memoryKeyTimings } from '../../../utils/background-jobs/runner/chat-worker'
import { requireOwnChatJob } from '../../../utils/background-jobs/control/job-access'
import { interruptIfOrphaned } from '../../../utils/background-jobs/store/memory-key-jobs'

/** GET /api/chats/:id: the job's status, so a reopened tab knows whether the reply still streams. */
export default defineEventHandler(async (event) => {
  const job = await interruptIfOrphaned(chatJobStore(), await requireOwnChatJob(event), memoryKeyTimings().staleAfterMs)
  return { id: job.id, threadId: job.threadId, status: job.status, error: job.error, keyInMemory: job.keyInMemory === true }
})
