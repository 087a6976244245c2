// Background chats at scale: 500 concurrent chats against a loopback fake model (3 steps each: two calls to a
// no-op server tool, then a short text), run through the real queue and runner, embedded (in-process queue, memory
// store) and on Redis (a real redis-server; two "instances" in this process, each with its own connections, queue
// worker and store; a subscriber on instance B reads the streams of jobs that run on either). Reports chats per
// second, event latency from the runner's append to the subscriber (p50 / p99), and memory per job while all 500
// wait in their last step. Run: `npm run bench:jobs` (or `npm run bench -- background-jobs`). Needs redis-server.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { setMaxListeners } from 'node:events'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { Redis } from 'ioredis'
import type { LoopEvent } from '../shared/loop/loop-event'
import { createOpenAICompatibleModel } from '../shared/stream/openai-compatible-model'
import { createBullmqJobQueue } from '../server/utils/background-jobs/bullmq-job-queue'
import { createInProcessJobQueue } from '../server/utils/background-jobs/in-process-job-queue'
import type { JobQueue } from '../server/utils/background-jobs/job-queue'
import type { JobStore } from '../server/utils/background-jobs/job-store-types'
import { createMemoryJobStore } from '../server/utils/background-jobs/memory-job-store'
import { createRedisJobStore } from '../server/utils/background-jobs/redis-job-store'
import { createChatJob, runChatJob } from '../server/utils/background-jobs/stream-handler'
import type { ChatQueueData } from '../server/utils/background-jobs/stream-handler'
import { registerServerTool } from '../server/utils/chat/tool-registry'
import { startRedisServer } from '../tests/unit/helpers/redis-server'
import { printTable, startLoopbackServer, writeResult } from './lib/index'

const CHATS = Number(process.env.BENCH_JOBS_CHATS ?? 500)
const STEPS = 3

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`
}

function answer(step: number): string {
  if (step >= STEPS) return chunk({ role: 'assistant', content: '' }) + chunk({ content: 'All ' }) + chunk({ content: 'done.' }) + chunk({}, 'stop') + 'data: [DONE]\n\n'
  return chunk({ role: 'assistant', content: null })
    + chunk({ tool_calls: [{ index: 0, id: `call_${step}`, type: 'function', function: { name: 'bench_noop', arguments: '' } }] })
    + chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] })
    + chunk({}, 'tool_calls') + 'data: [DONE]\n\n'
}

/** The fake model; it can hold every last-step request until released, so memory is measured with all jobs alive. */
function createFakeModel() {
  let held: Array<() => void> = []
  let holding = false
  let expected = CHATS
  let onHeld: (() => void) | undefined
  const check = () => {
    if (holding && held.length >= expected) onHeld?.()
  }
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (part: string) => (body += part))
    request.on('end', () => {
      const step = (JSON.parse(body) as { messages: { role: string }[] }).messages.filter(message => message.role === 'assistant').length + 1
      const send = () => {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        response.end(answer(step))
      }
      if (holding && step >= STEPS) {
        held.push(send)
        check()
      }
      else send()
    })
  }
  return {
    handler,
    /** Resolves once every chat still going is waiting for its last step's reply. */
    hold: () => {
      holding = true
      expected = CHATS
      return new Promise<void>(resolve => (onHeld = resolve))
    },
    /** A chat ended before its last step (it failed): wait for one fewer. */
    lost: () => {
      expected--
      check()
    },
    release: () => {
      holding = false
      const waiting = held
      held = []
      for (const send of waiting) send()
    },
  }
}

/** Events carry the time they were appended (this process's clock, shared by both "instances"). */
function stamped(store: JobStore): JobStore {
  return { ...store, appendEvent: (jobId, event) => store.appendEvent(jobId, { ...(event as object), emittedAt: performance.now() }) }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** JS heap plus memory held outside it (buffers, sockets' native memory), after a full GC when exposed. */
function heapMb(): number {
  ;(globalThis as { gc?: () => void }).gc?.()
  const usage = process.memoryUsage()
  return (usage.heapUsed + usage.external) / 1024 / 1024
}

interface Setup {
  name: string
  /** The store jobs are created in (instance A's). */
  store: JobStore
  /** The store the subscriber reads from (instance B). */
  reader: JobStore
  /** Each instance's queue, and the store its runners append to (stamped). */
  queues: JobQueue<ChatQueueData>[]
  runnerStores: JobStore[]
  /** Memory Redis itself holds, in bytes (0 embedded). */
  serverBytes: () => Promise<number>
  close: () => Promise<void>
}

async function runScenario(setup: Setup, baseURL: string, fake: ReturnType<typeof createFakeModel>) {
  const model = createOpenAICompatibleModel({ baseURL, model: 'bench' })
  for (const [index, queue] of setup.queues.entries()) {
    const store = setup.runnerStores[index]!
    queue.startWorker((jobId, _data, { attempt, signal }) => runChatJob(store, jobId, { model, attempt, signal }))
  }
  const latencies: number[] = []
  let finished = 0
  let failed = 0
  let allDone!: () => void
  const done = new Promise<void>(resolve => (allDone = resolve))
  const subscriptions = new AbortController()
  // One signal ends every subscription of the run.
  setMaxListeners(0, subscriptions.signal)
  const jobIds: string[] = []
  for (let index = 0; index < CHATS; index++) {
    const job = await createChatJob(setup.store, { sessionId: 'bench', threadId: `t${index}`, messages: [{ role: 'user', content: 'go' }], modelName: 'bench', serverToolNames: ['bench_noop'] })
    jobIds.push(job.id)
    await setup.reader.subscribe<LoopEvent & { emittedAt: number }>(job.id, 0, (item) => {
      latencies.push(performance.now() - item.event.emittedAt)
      if (item.event.type === 'finish' || item.event.type === 'fail') {
        if (item.event.type === 'fail') {
          if (++failed === 1) console.error('a chat failed:', item.event.error.message)
          if (item.event.steps < STEPS) fake.lost()
        }
        if (++finished === CHATS) allDone()
      }
    }, subscriptions.signal)
  }
  const heapBefore = heapMb()
  const serverBefore = await setup.serverBytes()
  const held = fake.hold()
  // How late this process's event loop ran: in one process, the runners of both instances and the subscriber share it.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()
  const started = performance.now()
  await Promise.all(jobIds.map((jobId, index) => setup.queues[index % setup.queues.length]!.enqueue(jobId, { kind: 'chat' })))
  await held
  // Measured with every chat alive in its last step, once the events already sent have reached the subscriber (a
  // full GC must not land inside a measured latency); the pause is left out of the throughput.
  const pausedAt = performance.now()
  for (let count = -1; count !== latencies.length;) {
    count = latencies.length
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  loopDelay.disable()
  const heapHeld = heapMb()
  const serverHeld = await setup.serverBytes()
  loopDelay.enable()
  const pausedMs = performance.now() - pausedAt
  fake.release()
  await done
  const seconds = (performance.now() - started - pausedMs) / 1000
  loopDelay.disable()
  subscriptions.abort()
  // The last event lands just before the runner marks its job: let every runner return before the queues close.
  for (const jobId of jobIds) {
    while (!['done', 'failed', 'stopped'].includes((await setup.store.getJob(jobId))?.status ?? '')) await new Promise(resolve => setTimeout(resolve, 20))
  }
  const sorted = latencies.sort((a, b) => a - b)
  return {
    mode: setup.name,
    chats: CHATS,
    failed,
    'chats/s': CHATS / seconds,
    events: sorted.length,
    'latency p50 ms': percentile(sorted, 50),
    'latency p99 ms': percentile(sorted, 99),
    'loop delay p99 ms': loopDelay.percentile(99) / 1e6,
    'KB/job (this process)': ((heapHeld - heapBefore) * 1024) / CHATS,
    'KB/job (Redis)': ((serverHeld - serverBefore) / 1024) / CHATS,
  }
}

async function embedded(): Promise<Setup> {
  const store = createMemoryJobStore()
  return {
    name: 'embedded (in-process queue, memory store)',
    store,
    reader: store,
    queues: [createInProcessJobQueue<ChatQueueData>({ concurrency: CHATS })],
    runnerStores: [stamped(store)],
    serverBytes: async () => 0,
    close: () => store.close(),
  }
}

async function onRedis(url: string): Promise<Setup> {
  // Two instances: each its own shared client, store and BullMQ worker; B also hosts the subscriber.
  const clientA = new Redis(url)
  const clientB = new Redis(url)
  const storeA = createRedisJobStore({ redis: clientA, keyPrefix: 'bench:' })
  const storeB = createRedisJobStore({ redis: clientB, keyPrefix: 'bench:' })
  const queueOptions = { url, name: `bench-${Date.now()}`, prefix: 'bench:bull', concurrency: Math.ceil(CHATS / 2), attempts: 1 }
  const queues = [createBullmqJobQueue<ChatQueueData>(queueOptions), createBullmqJobQueue<ChatQueueData>(queueOptions)]
  const probe = new Redis(url)
  return {
    name: 'Redis (2 instances, BullMQ + Streams)',
    store: storeA,
    reader: storeB,
    queues,
    runnerStores: [stamped(storeA), stamped(storeB)],
    serverBytes: async () => Number(/used_memory:(\d+)/.exec(await probe.info('memory'))?.[1] ?? 0),
    close: async () => {
      for (const queue of queues) await queue.close()
      await storeA.close()
      await storeB.close()
      for (const client of [clientA, clientB, probe]) client.disconnect()
    },
  }
}

export async function runBackgroundJobsBench() {
  const dispose = registerServerTool({ type: 'function', function: { name: 'bench_noop', parameters: { type: 'object', properties: {} } } }, () => 'ok', { runtime: 'server' })
  const fake = createFakeModel()
  const server = await startLoopbackServer(fake.handler, { keepAliveTimeoutMs: 120_000 })
  const redis = await startRedisServer()
  const rows: Record<string, string | number>[] = []
  try {
    // The first pass only warms up (JIT, the HTTP client's connection pool): whichever mode ran first looked slower.
    for (const [make, measured] of [[embedded, false], [embedded, true], [() => onRedis(redis.url), true]] as const) {
      const setup = await make()
      try {
        const row = await runScenario(setup, `${server.url}/v1`, fake)
        if (measured) rows.push(row)
      }
      finally {
        await setup.close()
      }
    }
  }
  finally {
    dispose()
    await server.close()
    await redis.stop()
  }
  printTable(`${CHATS} concurrent background chats, ${STEPS} steps each (2 no-op server tool calls + text), loopback fake model; latency = append → subscriber on instance B; memory = heap + external (after GC) and Redis used_memory with all chats waiting in their last step`, rows)
  const path = await writeResult(CHATS === 500 ? 'background-jobs' : `background-jobs-${CHATS}`, { chats: CHATS, steps: STEPS, gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function', targets: { 'latency p99 ms': 50, 'KB/job': 100 }, rows })
  console.log(`written ${path}`)
  return rows
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBackgroundJobsBench()
  process.exit(0)
}
