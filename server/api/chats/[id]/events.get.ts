import { chatJobStore } from '../../../utils/background-jobs/store/chat-job-store'
import { memoryKeyTimings } from '../../../utils/background-jobs/runner/chat-worker'
import { takeEventStreamSlot } from '../../../utils/background-jobs/events/event-stream-slots'
import { requireOwnChatJob } from '../../../utils/background-jobs/control/job-access'
import { pipeJobEvents } from '../../../utils/background-jobs/events/job-event-stream'
import { interruptIfOrphaned } from '../../../utils/background-jobs/store/memory-key-jobs'

/**
 * GET /api/chats/:id/events: the job's LoopEvents as server-sent events, each with its id, from after
 * `Last-Event-ID` (a reconnect) or `?after=` (a reopened chat: the last id it recorded), live until the job ends.
 * A job on the user's own key whose instance went away is ended here with a clear message (none can take it over).
 * Each session holds a bounded number of these streams (429 past it), each slot freed when its stream closes.
 */
export default defineEventHandler(async (event) => {
  const store = chatJobStore()
  const job = await requireOwnChatJob(event)
  const release = takeEventStreamSlot(event, job.sessionId)
  try {
    const after = Number(getRequestHeader(event, 'last-event-id') ?? getQuery(event).after ?? 0)
    const { staleAfterMs } = memoryKeyTimings()
    const check = async () => {
      const current = await store.getJob(job.id)
      if (current) await interruptIfOrphaned(store, current, staleAfterMs)
    }
    await check()
    await pipeJobEvents(event, store, job.id, Number.isSafeInteger(after) && after > 0 ? after : 0, job.keyInMemory ? { watch: { intervalMs: staleAfterMs, check } } : {})
  }
  finally {
    release()
  }
})
