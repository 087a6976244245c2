import { randomUUID } from 'node:crypto'
import { OPENROUTER_NO_KEY_MESSAGE } from '../../openrouter-proxy'
import { readOpenRouterPolicy } from '../../openrouter-policy'
import { chatJobStore } from '../store/chat-job-store'
import { resolveJobWaitTimeoutMs } from '../queue/job-wait-timeout'
import { useJobControl } from '../control/job-control'
import { useJobQueue } from '../queue/job-queue'
import { createServerChatModel } from './server-chat-model'
import { runChatJob } from './stream-handler'
import { jobNeedsServerKey } from './job-needs-key'
import type { ChatJobState, ChatQueueData } from './stream-handler'

/** This instance, as a job record's owner. */
const instanceId = randomUUID()

/** The queue background chats go through (jobs carry only their id; their state is in the JobStore). */
export function useChatQueue() {
  return useJobQueue<ChatQueueData>()
}

/**
 * Starts this instance's worker: it runs queued chats (from any instance) with the server's key, read here from
 * the runtime config and never stored. A job taken over (attempt > 1) goes on from its last finished step.
 */
export function startChatWorker(): void {
  // Stop and browser answers sent from other instances reach the jobs this one runs.
  useJobControl()
  useChatQueue().startWorker(async (jobId, _data, { attempt, signal, slot }) => {
    const config = useRuntimeConfig()
    const store = chatJobStore()
    const apiKey = String(config.openrouterApiKey ?? '').trim()
    if (!apiKey && await jobNeedsServerKey(store, jobId)) {
      await store.updateJob(jobId, { status: 'failed', error: OPENROUTER_NO_KEY_MESSAGE })
      return
    }
    await runChatJob(store, jobId, {
      attempt,
      signal,
      ownerId: instanceId,
      // Renewed as often as BullMQ renews its own lock, so a run that lost the job notices within a third of it.
      leaseRenewMs: memoryKeyTimings().heartbeatMs,
      slot,
      waitTimeoutMs: resolveJobWaitTimeoutMs(config.jobWaitTimeoutMs),
      model: (state: ChatJobState) => createServerChatModel({
        apiKey, baseUrl: String(config.openrouterBaseUrl), model: state.modelName, policy: readOpenRouterPolicy(config),
        appUrl: config.public.appUrl, appTitle: config.public.appTitle,
      }),
    })
  })
}

/**
 * How a chat on a user's own key shows it is alive: its runner beats every third of `jobLockDurationMs` (the same
 * setting that times a takeover, default 30 s), and another instance reading it calls it orphaned after a whole one.
 */
export function memoryKeyTimings(): { heartbeatMs: number, staleAfterMs: number } {
  const staleAfterMs = Number(useRuntimeConfig().jobLockDurationMs) || 30_000
  return { heartbeatMs: Math.max(50, Math.floor(staleAfterMs / 3)), staleAfterMs }
}
