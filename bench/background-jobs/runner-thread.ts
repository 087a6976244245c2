// The bench's runner thread (Redis; BENCH_JOBS_THREAD=0 leaves it out), as the server's (server/utils/background-jobs/
// runner-thread/runner-thread.ts) but with the bench's model and its events stamped: this instance's queue worker
// and chat runners on a thread of their own, its server tools through the tool bridge, so the instance's main
// thread only serves its subscriptions and runs tool handlers. Posts { type: 'ready' } and, asked { type: 'collect' }, its append round trips.
import { getHeapStatistics } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { createOpenAICompatibleModel } from '../../shared/stream/openai-compatible-model'
import { createBullmqJobQueue } from '../../server/utils/background-jobs/queue/bullmq-job-queue'
import { createRedisJobStore } from '../../server/utils/background-jobs/store/redis-job-store'
import { runChatJob } from '../../server/utils/background-jobs/runner/stream-handler'
import type { ChatQueueData } from '../../server/utils/background-jobs/runner/stream-handler'
import { createToolBridgeClient } from '../../server/utils/background-jobs/runner/runner-thread/tool-bridge'
import { closeRedisClients, getRedisClient } from '../../server/utils/redis/redis-client'
import { stampedJobStore } from './stamped-store'
import type { InstanceConfig } from './protocol'

const config = workerData as InstanceConfig
const appendRoundTrips: number[] = []
// The tools live on the main thread (where a Nitro plugin would have registered them): every call crosses the
// server's tool bridge to it and back, as with the server's runner threads.
const bridge = createToolBridgeClient(parentPort!)
await bridge.syncTools()
const store = createRedisJobStore({ redis: getRedisClient(config.redisUrl!), keyPrefix: config.keyPrefix })
const stamped = stampedJobStore(store, config.name, appendRoundTrips)
const queue = createBullmqJobQueue<ChatQueueData>({ url: config.redisUrl!, name: config.queueName, prefix: `${config.keyPrefix}bull`, concurrency: Math.max(1, config.concurrency), attempts: 1 })
const model = createOpenAICompatibleModel({ baseURL: config.modelUrl, model: 'bench' })
queue.startWorker((jobId, _data, { attempt, signal }) => runChatJob(stamped, jobId, { model, attempt, signal, ownerId: config.name }))
parentPort!.on('message', (message: { type: string }) => {
  if (message.type === 'collect') parentPort!.postMessage({ type: 'collected', appendRoundTrips })
  if (message.type === 'heap') {
    ;(globalThis as { gc?: () => void }).gc?.()
    parentPort!.postMessage({ type: 'heap', mb: getHeapStatistics().used_heap_size / 1024 / 1024 })
  }
  if (message.type === 'close') void queue.close().then(() => store.close()).then(() => closeRedisClients()).then(() => parentPort!.postMessage({ type: 'closed' }))
})
parentPort!.postMessage({ type: 'ready' })
