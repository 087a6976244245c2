// One app instance of the background-jobs bench, in a process of its own (forked with IPC by the coordinator):
// its own Redis client, JobStore, queue worker (BullMQ, or in-process when embedded) and the subscriptions of the
// chats it created, as the SSE route would hold them. Its runners stamp each event with this instance's name and
// the wall clock; its subscriptions measure emit → receive, apart for events another instance emitted.
import { setMaxListeners } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createOpenAICompatibleModel } from '../../shared/stream/openai-compatible-model'
import { createBullmqJobQueue } from '../../server/utils/background-jobs/queue/bullmq-job-queue'
import { createInProcessJobQueue } from '../../server/utils/background-jobs/queue/in-process-job-queue'
import type { JobQueue } from '../../server/utils/background-jobs/queue/job-queue'
import type { JobStore } from '../../server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '../../server/utils/background-jobs/store/memory-job-store'
import { createRedisJobStore } from '../../server/utils/background-jobs/store/redis-job-store'
import { createChatJob, runChatJob } from '../../server/utils/background-jobs/runner/stream-handler'
import type { ChatQueueData } from '../../server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '../../server/utils/chat/tool-registry'
import { closeRedisClients, getRedisClient } from '../../server/utils/redis/redis-client'
import { wallClockMs } from './protocol'
import { stampedJobStore } from './stamped-store'
import type { FromInstance, InstanceConfig, StampedEvent, ToInstance } from './protocol'

const send = (message: FromInstance) => process.send!(message)
let config!: InstanceConfig
let store!: JobStore
let queue!: JobQueue<ChatQueueData>
const jobIds: string[] = []
const crossInstance: number[] = []
const sameInstance: number[] = []
/** How long each append took, from the runner's call to the store's answer. */
const appendRoundTrips: number[] = []
let finished = 0
let failed = 0
let heapBefore = 0
const subscriptions = new AbortController()
setMaxListeners(0, subscriptions.signal)
// One monitor per measured stretch (before and after the pause for memory): a monitor disabled and enabled again
// counts the whole pause as one late tick.
const loopDelays = [monitorEventLoopDelay({ resolution: 10 }), monitorEventLoopDelay({ resolution: 10 })]

/** JS heap plus memory held outside it (buffers, sockets' native memory), after a full GC when exposed. */
async function heapMb(): Promise<number> {
  ;(globalThis as { gc?: () => void }).gc?.()
  const usage = process.memoryUsage()
  return (usage.heapUsed + usage.external) / 1024 / 1024
}

async function init(): Promise<void> {
  registerServerTool({ type: 'function', function: { name: 'bench_noop', parameters: { type: 'object', properties: {} } } }, () => 'ok', { runtime: 'server' })
  if (config.mode === 'redis') {
    // The instance's shared client, as the server makes it (redis-client.ts).
    store = createRedisJobStore({ redis: getRedisClient(config.redisUrl!), keyPrefix: config.keyPrefix })
    queue = createBullmqJobQueue<ChatQueueData>({ url: config.redisUrl!, name: config.queueName, prefix: `${config.keyPrefix}bull`, concurrency: Math.max(1, config.concurrency), attempts: 1 })
  }
  else {
    store = createMemoryJobStore()
    queue = createInProcessJobQueue<ChatQueueData>({ concurrency: config.concurrency })
  }
  const stamped = stampedJobStore(store, config.name, appendRoundTrips)
  const model = createOpenAICompatibleModel({ baseURL: config.modelUrl, model: 'bench' })
  // A server that has been up a while: the first chat loads fetch's client, compiles the loop and the scripts.
  const warmUp = await createChatJob(store, { sessionId: 'bench-warm-up', threadId: 'warm-up', messages: [{ role: 'user', content: 'go' }], modelName: 'bench', serverToolNames: ['bench_noop'] })
  await runChatJob(store, warmUp.id, { model, ownerId: config.name })
  if (config.concurrency > 0) {
    queue.startWorker((jobId, _data, { attempt, signal }) => runChatJob(stamped, jobId, { model, attempt, signal, ownerId: config.name }))
  }
}

/** A small API route on this instance's main thread, as a page's other requests would find it while chats run. */
async function serve(): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ ok: true, chats: jobIds.length, finished }))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`
}

async function create(count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const job = await createChatJob(store, { sessionId: 'bench', threadId: `${config.name}-${index}`, messages: [{ role: 'user', content: 'go' }], modelName: 'bench', serverToolNames: ['bench_noop'] })
    jobIds.push(job.id)
    await store.subscribe<StampedEvent>(job.id, 0, ({ event }) => {
      const latency = wallClockMs() - event.emittedAt
      ;(event.emittedBy === config.name ? sameInstance : crossInstance).push(latency)
      if (event.type !== 'finish' && event.type !== 'fail') return
      if (event.type === 'fail') {
        if (++failed === 1) console.error('a chat failed:', JSON.stringify(event).slice(0, 500))
        if ((event.steps ?? 0) < config.steps) send({ type: 'lost' })
      }
      if (++finished === jobIds.length) void whenAllDone()
    }, subscriptions.signal)
  }
  heapBefore = await heapMb()
}

async function measure(): Promise<number> {
  // Once the events already sent have arrived (a full GC must not land inside a measured latency).
  loopDelays[0]!.disable()
  for (let count = -1; count !== crossInstance.length + sameInstance.length;) {
    count = crossInstance.length + sameInstance.length
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  const delta = await heapMb() - heapBefore
  loopDelays[1]!.enable()
  return delta
}

async function whenAllDone(): Promise<void> {
  for (const monitor of loopDelays) monitor.disable()
  subscriptions.abort()
  // The last event lands just before the runner marks its job: let every runner of this instance return.
  send({ type: 'done', crossInstance, sameInstance, appendRoundTrips, failed, loopDelayP99Ms: Math.max(...loopDelays.map(monitor => monitor.percentile(99))) / 1e6 })
}

process.on('message', (message: ToInstance) => {
  const reply = async (): Promise<FromInstance | undefined> => {
    switch (message.type) {
      case 'init':
        config = message.config
        await init()
        return config.serve ? { type: 'ready', url: await serve() } : { type: 'ready' }
      case 'create':
        await create(message.count)
        return { type: 'created' }
      case 'enqueue':
        loopDelays[0]!.enable()
        await Promise.all(jobIds.map(jobId => queue.enqueue(jobId, { kind: 'chat' })))
        return { type: 'enqueued' }
      case 'measure':
        return { type: 'measured', heapDeltaMb: await measure(), rssMb: process.memoryUsage().rss / 1024 / 1024 }
      case 'close':
        await queue.close()
        await store.close()
        await closeRedisClients()
        return { type: 'closed' }
    }
  }
  reply().then((answer) => {
    if (answer) send(answer)
    // Exiting (not killed) lets --cpu-prof write its profile.
    if (answer?.type === 'closed') setTimeout(() => process.exit(0), 50)
  }, (error: unknown) => {
    console.error('[bench instance]', error)
    process.exit(1)
  })
})
