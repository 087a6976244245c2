// An app instance whose server tools start and never finish, in a process of its own, so a test can SIGKILL it
// while its tools run and check what the instance that takes the chat over does with them:
//   node --import tsx tests/unit/helpers/cut-tools-runner-process.ts
// with REDIS_URL, QUEUE_NAME, KEY_PREFIX and MODEL_URL set. Its tools are `outside_tool` (acts outside the app,
// approval 'auto' so it runs without asking) and `pure_tool`; each counts its runs per call in the Redis hash
// `<KEY_PREFIX>tool-runs` (field `<tool>:<call id>`) and then waits forever. It says `ready`.
import { Redis } from 'ioredis'
import { createBullmqJobQueue } from '../../../server/utils/background-jobs/queue/bullmq-job-queue'
import { createRedisJobStore } from '../../../server/utils/background-jobs/store/redis-job-store'
import { runChatJob } from '../../../server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '../../../server/utils/chat/tool-registry'
import { createOpenAICompatibleModel } from '../../../shared/stream/openai-compatible-model'

const prefix = process.env.KEY_PREFIX!
const redis = new Redis(process.env.REDIS_URL!)
const parameters = { type: 'object' as const, properties: {} }
for (const [name, actsOutsideApp] of [['outside_tool', true], ['pure_tool', false]] as const) {
  registerServerTool({ type: 'function', function: { name, parameters }, actsOutsideApp, approval: 'auto', timeoutMs: 120_000 }, async (_args, context) => {
    await redis.hincrby(`${prefix}tool-runs`, `${name}:${context.callId}`, 1)
    await new Promise(() => {})
  }, { runtime: 'server' })
}

const store = createRedisJobStore({ redis, keyPrefix: prefix })
const queue = createBullmqJobQueue<unknown>({ url: process.env.REDIS_URL!, name: process.env.QUEUE_NAME!, lockDurationMs: 1000, stalledIntervalMs: 200, attempts: 1 })
const model = createOpenAICompatibleModel({ baseURL: process.env.MODEL_URL!, model: 'steps' })
queue.startWorker((jobId, _data, { attempt, signal }) => runChatJob(store, jobId, { model, attempt, signal, ownerId: `runner-${process.pid}`, leaseRenewMs: 300 }))
process.stdout.write('ready\n')
