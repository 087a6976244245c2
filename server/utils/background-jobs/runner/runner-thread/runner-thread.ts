// A runner thread's entry (bundled by modules/chat-runner-thread.ts into .output/server/chat-runner-thread.mjs):
// this instance's BullMQ worker and the chats it runs, on a thread of their own, so the main thread's event loop
// only serves HTTP, SSE and pub/sub. Nitro-free: its config comes as workerData, its server tools through the
// tool bridge (the main thread runs them), Stop and tabs' answers over Redis (job control), like another instance.
import { parentPort, workerData } from 'node:worker_threads'
import { OPENROUTER_NO_KEY_MESSAGE } from '../../../openrouter-proxy'
import { closeRedisClients, getRedisClient } from '../../../redis/redis-client'
import { createBullmqJobQueue } from '../../queue/bullmq-job-queue'
import { createRedisJobControl } from '../../control/job-control'
import { createRedisJobStore } from '../../store/redis-job-store'
import { createServerChatModel } from '../server-chat-model'
import { jobNeedsServerKey } from '../job-needs-key'
import { runChatJob } from '../stream-handler'
import type { ChatJobState, ChatQueueData } from '../stream-handler'
import { answerJobApproval } from '../pending-approvals'
import type { RunnerThreadConfig } from './runner-thread-config'
import type { ApprovalForThread } from './runner-threads'
import { createToolBridgeClient } from './tool-bridge'

const config = workerData as RunnerThreadConfig
const main = parentPort!
const bridge = createToolBridgeClient(main)
const redis = getRedisClient(config.redisUrl)
const store = createRedisJobStore({ redis })
const control = createRedisJobControl({ redis })
const queue = createBullmqJobQueue<ChatQueueData>({
  url: config.redisUrl,
  concurrency: config.concurrency,
  ...(config.lockDurationMs ? { lockDurationMs: config.lockDurationMs } : {}),
  ...(config.stalledIntervalMs ? { stalledIntervalMs: config.stalledIntervalMs } : {}),
})

queue.startWorker(async (jobId, _data, { attempt, signal, slot }) => {
  if (!config.apiKey && await jobNeedsServerKey(store, jobId)) {
    await store.updateJob(jobId, { status: 'failed', error: OPENROUTER_NO_KEY_MESSAGE })
    return
  }
  // The tools registered on the main thread now (a plugin may have added one since the last chat).
  await bridge.syncTools()
  await runChatJob(store, jobId, {
    attempt,
    signal,
    ownerId: config.ownerId,
    leaseRenewMs: config.leaseRenewMs,
    slot,
    waitTimeoutMs: config.waitTimeoutMs,
    model: (state: ChatJobState) => createServerChatModel({
      apiKey: config.apiKey, baseUrl: config.openrouterBaseUrl, model: state.modelName, policy: config.policy,
      appUrl: config.appUrl, appTitle: config.appTitle,
    }),
  })
})

main.on('message', (message: { type: string, id?: number, request?: ApprovalForThread }) => {
  if (message.type === 'approval-answer') {
    const { jobId, callId, answer } = message.request!
    main.postMessage({ type: 'approval-answered', id: message.id, result: answerJobApproval(jobId, callId, answer) })
    return
  }
  if (message.type !== 'close') return
  // The queue first (running chats see their signal abort and are left for a takeover), then the connections.
  void queue.close()
    .then(() => control.close())
    .then(() => store.close())
    .then(() => closeRedisClients())
    .catch((error: unknown) => console.error('[jobs] runner thread:', error))
    .finally(() => main.postMessage({ type: 'closed' }))
})
main.postMessage({ type: 'ready' })
