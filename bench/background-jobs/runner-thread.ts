// The bench's "runners in a worker thread" variant (BENCH_JOBS_THREAD=1, Redis only): this instance's queue worker
// and chat runners, with their own Redis client, store and model, on a thread of their own, so the instance's main
// thread only serves its subscriptions. Posts { type: 'ready' } and, asked { type: 'collect' }, its append round trips.
import { parentPort, workerData } from 'node:worker_threads'
import { createOpenAICompatibleModel } from '../../shared/stream/openai-compatible-model'
import { createBullmqJobQueue } from '../../server/utils/background-jobs/bullmq-job-queue'
import type { JobStore } from '../../server/utils/background-jobs/job-store-types'
import { createRedisJobStore } from '../../server/utils/background-jobs/redis-job-store'
import { runChatJob } from '../../server/utils/background-jobs/stream-handler'
import type { ChatQueueData } from '../../server/utils/background-jobs/stream-handler'
import { registerServerTool } from '../../server/utils/chat/tool-registry'
import { closeRedisClients, getRedisClient } from '../../server/utils/redis/redis-client'
import { wallClockMs } from './protocol'
import type { InstanceConfig } from './protocol'

const config = workerData as InstanceConfig
const appendRoundTrips: number[] = []
// The tool's handler lives on the main thread (where a Nitro plugin would have registered it): every call crosses
// to it and back, as server tools would with runners on a thread.
const toolCalls = new Map<number, (text: string) => void>()
let nextCall = 0
registerServerTool({ type: 'function', function: { name: 'bench_noop', parameters: { type: 'object', properties: {} } } }, args => new Promise<string>((resolve) => {
  const id = nextCall++
  toolCalls.set(id, resolve)
  parentPort!.postMessage({ type: 'tool-run', id, name: 'bench_noop', args })
}), { runtime: 'server' })
const store = createRedisJobStore({ redis: getRedisClient(config.redisUrl!), keyPrefix: config.keyPrefix })
const stamped: JobStore = {
  ...store,
  appendEvent: async (jobId, event, fence) => {
    const emittedAt = wallClockMs()
    const id = await store.appendEvent(jobId, { ...(event as object), emittedBy: config.name, emittedAt }, fence)
    appendRoundTrips.push(wallClockMs() - emittedAt)
    return id
  },
}
const queue = createBullmqJobQueue<ChatQueueData>({ url: config.redisUrl!, name: config.queueName, prefix: `${config.keyPrefix}bull`, concurrency: Math.max(1, config.concurrency), attempts: 1 })
const model = createOpenAICompatibleModel({ baseURL: config.modelUrl, model: 'bench' })
queue.startWorker((jobId, _data, { attempt, signal }) => runChatJob(stamped, jobId, { model, attempt, signal, ownerId: config.name }))
parentPort!.on('message', (message: { type: string, id?: number, text?: string }) => {
  if (message.type === 'tool-result') {
    toolCalls.get(message.id!)?.(message.text!)
    toolCalls.delete(message.id!)
  }
  if (message.type === 'collect') parentPort!.postMessage({ type: 'collected', appendRoundTrips })
  if (message.type === 'close') void queue.close().then(() => store.close()).then(() => closeRedisClients()).then(() => parentPort!.postMessage({ type: 'closed' }))
})
parentPort!.postMessage({ type: 'ready' })
