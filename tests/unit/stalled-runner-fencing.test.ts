// A BullMQ instance frozen (SIGSTOP) past its lock while another instance takes its chat over: when it wakes, its
// late writes are refused by the store's fencing token, so it neither records nor runs anything more. Real
// redis-server, real BullMQ, the frozen instance a process of its own, the model a loopback HTTP server.
import type { ChildProcess } from 'node:child_process'
import type { LoopbackServer } from '~~/bench/lib/loopback-server'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createOpenAICompatibleModel } from '#shared/stream/openai-compatible-model'
import { createBullmqJobQueue } from '~~/server/utils/background-jobs/queue/bullmq-job-queue'
import type { JobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import { createRedisJobStore } from '~~/server/utils/background-jobs/store/redis-job-store'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import type { ChatJobState } from '~~/server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { toolStepAnswer } from '../fixtures/tool-steps-model/tool-steps-model'
import { startToolStepsServer } from '../fixtures/tool-steps-model/tool-steps-server'
import { startRedisServer } from './helpers/redis-server'
import { startRunnerProcess } from './helpers/runner-process'
import type { RedisServer } from './helpers/redis-server'
import { watchSavedStates } from './helpers/saved-states'

const STEPS = 3
const PREFIX = 'fencing:'
let redisServer: RedisServer
let redis: Redis
let modelServer: LoopbackServer
let modelUrl: string
/** Decides each model request: answer now, or keep it (the test answers it later). */
let onRequest: (step: number, answer: () => void) => void = (_step, answer) => answer()
const children: ChildProcess[] = []
const queues: JobQueue<unknown>[] = []

beforeAll(async () => {
  redisServer = await startRedisServer()
  redis = new Redis(redisServer.url)
  modelServer = await startToolStepsServer((step, _body, reply) => {
    onRequest(step, () => reply(toolStepAnswer(step, STEPS, 'fenced_tool')))
  })
  modelUrl = `${modelServer.url}/v1`
})

afterAll(async () => {
  for (const child of children) {
    child.kill('SIGCONT')
    child.kill('SIGKILL')
  }
  for (const queue of queues) await queue.close()
  await modelServer?.close()
  redis?.disconnect()
  await redisServer?.stop()
})

function startInstanceA(queueName: string): { lines: string[], child: ChildProcess } {
  const instance = startRunnerProcess('chat-runner-process.ts', { REDIS_URL: redisServer.url, QUEUE_NAME: queueName, KEY_PREFIX: PREFIX, MODEL_URL: modelUrl })
  children.push(instance.child)
  return instance
}

describe('a runner frozen past its lock while another instance takes its chat over', () => {
  it('has its late writes refused: event ids stay 1..n, and no finished tool call runs twice', async () => {
    const queueName = `fencing-${Date.now()}`
    const a = startInstanceA(queueName)
    await vi.waitFor(() => expect(a.lines).toContain('ready'), { timeout: 20_000 })

    // A gets step 2's request and freezes there; its answer (a call to fenced_tool) waits in A's socket.
    let answerFrozen!: () => void
    const frozen = new Promise<void>((resolveFrozen) => {
      onRequest = (step, answer) => {
        if (step === 2 && !answerFrozen) {
          a.child.kill('SIGSTOP')
          answerFrozen = answer
          resolveFrozen()
          return
        }
        answer()
      }
    })
    const store = createRedisJobStore({ redis, keyPrefix: PREFIX })
    const savedState = watchSavedStates(store)
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [{ role: 'user', content: 'go' }], modelName: 'steps', serverToolNames: ['fenced_tool'] })
    const enqueuer = createBullmqJobQueue<unknown>({ url: redisServer.url, name: queueName })
    queues.push(enqueuer)
    await enqueuer.enqueue(job.id, { kind: 'chat' })
    await frozen
    answerFrozen()
    expect(((await store.getJob(job.id))!.state as ChatJobState).stepsDone).toBe(1)

    // Instance B (this process) starts only now: the job reaches it only by a takeover once A's lock lapsed.
    const runsOnB: string[] = []
    const dispose = registerServerTool({ type: 'function', function: { name: 'fenced_tool', parameters: { type: 'object', properties: {} } } }, async (_args, context) => {
      runsOnB.push(context.callId)
      await redis.hincrby(`${PREFIX}tool-runs`, context.callId, 1)
      return 'ran'
    }, { runtime: 'server' })
    const b = createBullmqJobQueue<unknown>({ url: redisServer.url, name: queueName, lockDurationMs: 1000, stalledIntervalMs: 200, attempts: 1 })
    queues.push(b)
    const model = createOpenAICompatibleModel({ baseURL: modelUrl, model: 'steps' })
    b.startWorker((jobId, _data, { attempt, signal }) => runChatJob(store, jobId, { model, attempt, signal, ownerId: 'instance-b', leaseRenewMs: 300 }))
    await vi.waitFor(async () => expect((await store.getJob(job.id))?.status).toBe('done'), { timeout: 20_000, interval: 100 })
    const finishedByB = await store.readEvents<LoopEvent>(job.id, 0)
    expect(runsOnB).toEqual(['call_2'])

    // A wakes with step 2's answer in hand: its first write is refused and its run ends without running the tool.
    a.child.kill('SIGCONT')
    await vi.waitFor(() => expect(a.lines).toContain(`ended ${job.id}`), { timeout: 20_000, interval: 50 })
    expect(a.lines.some(line => line.includes(`Job ${job.id} was taken over by another runner`))).toBe(true)

    expect(await redis.hgetall(`${PREFIX}tool-runs`)).toEqual({ call_1: '1', call_2: '1' })
    const events = await store.readEvents<LoopEvent>(job.id, 0)
    expect(events).toEqual(finishedByB)
    expect(events.map(item => item.id)).toEqual(events.map((_, index) => index + 1))
    expect(events.filter(item => item.event.type === 'tool-call-running')).toHaveLength(2)
    expect(events.filter(item => item.event.type === 'finish' || item.event.type === 'fail')).toHaveLength(1)
    expect(events.at(-1)!.event).toEqual({ type: 'finish', finishReason: 'stop', steps: STEPS })
    const record = await store.getJob(job.id)
    expect(record).toMatchObject({ status: 'done', ownerId: 'instance-b', runToken: 2 })
    expect(savedState(job.id)!.stepsDone).toBe(2)
    dispose()
  })
})
