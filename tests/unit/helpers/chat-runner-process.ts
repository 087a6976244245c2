// An app instance that runs background chats, in a process of its own so a test can freeze it (SIGSTOP) past its
// queue lock and wake it (SIGCONT) after another instance took its job over:
//   node --import tsx tests/unit/helpers/chat-runner-process.ts
// with REDIS_URL, QUEUE_NAME, KEY_PREFIX and MODEL_URL set. Its one server tool, `fenced_tool`, counts its runs per
// call id in the Redis hash `<KEY_PREFIX>tool-runs`, so the test sees every run on every instance. It says `ready`,
// `started <jobId> <attempt>` and `ended <jobId>`.
import { Redis } from 'ioredis'
import { createBullmqJobQueue } from '../../../server/utils/background-jobs/queue/bullmq-job-queue'
import { createRedisJobStore } from '../../../server/utils/background-jobs/store/redis-job-store'
import { runChatJob } from '../../../server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '../../../server/utils/chat/tool-registry'
import { createOpenAICompatibleModel } from '../../../shared/stream/openai-compatible-model'

const prefix = process.env.KEY_PREFIX!
const redis = new Redis(process.env.REDIS_URL!)
registerServerTool({ type: 'function', function: { name: 'fenced_tool', parameters: { type: 'object', properties: {} } } }, async (_args, context) => {
  await redis.hincrby(`${prefix}tool-runs`, String(context.callId), 1)
  return 'ran'
}, { runtime: 'server' })

const store = createRedisJobStore({ redis, keyPrefix: prefix })
const queue = createBullmqJobQueue<unknown>({
  url: process.env.REDIS_URL!,
  name: process.env.QUEUE_NAME!,
  // A short claim, so the job is free to take over soon after this process freezes.
  lockDurationMs: 1000,
  stalledIntervalMs: 200,
  attempts: 1,
})
const model = createOpenAICompatibleModel({ baseURL: process.env.MODEL_URL!, model: 'steps' })
queue.startWorker(async (jobId, _data, { attempt, signal }) => {
  process.stdout.write(`started ${jobId} ${attempt}\n`)
  try {
    await runChatJob(store, jobId, { model, attempt, signal, ownerId: `runner-${process.pid}`, leaseRenewMs: 300 })
  }
  finally {
    process.stdout.write(`ended ${jobId}\n`)
  }
})
process.stdout.write('ready\n')
