// An instance killed (SIGKILL) while two server tools of a chat run: the instance that takes the chat over must not
// run the one that acts outside the app a second time (its card and the model get "may or may not have completed"),
// runs the pure one again, and goes on with the next step without asking the model for the cut one again. Real
// redis-server, real BullMQ, the killed instance a process of its own, the model a loopback HTTP server.
import type { ChildProcess } from 'node:child_process'
import type { LoopbackServer } from '~~/bench/lib/loopback-server'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createOpenAICompatibleModel } from '#shared/stream/openai-compatible-model'
import type { ModelMessage } from '#shared/types/chat'
import { createBullmqJobQueue } from '~~/server/utils/background-jobs/queue/bullmq-job-queue'
import { INTERRUPTED_TOOL_MESSAGE } from '~~/server/utils/background-jobs/runner/cut-step'
import type { JobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import { createRedisJobStore } from '~~/server/utils/background-jobs/store/redis-job-store'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { parallelCallsAnswer, stepOfRequest, toolStepAnswer } from '../fixtures/tool-steps-model/tool-steps-model'
import { startToolStepsServer } from '../fixtures/tool-steps-model/tool-steps-server'
import { startRedisServer } from './helpers/redis-server'
import { startRunnerProcess } from './helpers/runner-process'
import type { RedisServer } from './helpers/redis-server'
import { watchSavedStates } from './helpers/saved-states'

const PREFIX = 'cut-tools:'
let redisServer: RedisServer
let redis: Redis
let modelServer: LoopbackServer
let modelUrl: string
/** Every request body the model got, parsed. */
const requests: Array<{ messages: ModelMessage[] }> = []
const children: ChildProcess[] = []
const queues: JobQueue<unknown>[] = []

beforeAll(async () => {
  redisServer = await startRedisServer()
  redis = new Redis(redisServer.url)
  modelServer = await startToolStepsServer((step, body, reply) => {
    requests.push(JSON.parse(body) as { messages: ModelMessage[] })
    reply(step === 1 ? parallelCallsAnswer([{ id: 'call_out', name: 'outside_tool' }, { id: 'call_pure', name: 'pure_tool' }]) : toolStepAnswer(step, step, 'unused'))
  })
  modelUrl = `${modelServer.url}/v1`
})

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  for (const queue of queues) await queue.close()
  await modelServer?.close()
  redis?.disconnect()
  await redisServer?.stop()
})

function startInstanceA(queueName: string): { lines: string[], child: ChildProcess } {
  const instance = startRunnerProcess('cut-tools-runner-process.ts', { REDIS_URL: redisServer.url, QUEUE_NAME: queueName, KEY_PREFIX: PREFIX, MODEL_URL: modelUrl })
  children.push(instance.child)
  return instance
}

describe('a chat whose instance dies while its tools run', () => {
  it('is taken over without running a tool that acts outside the app twice, and runs a pure one again', async () => {
    const queueName = `cut-tools-${Date.now()}`
    const a = startInstanceA(queueName)
    await vi.waitFor(() => expect(a.lines).toContain('ready'), { timeout: 20_000 })
    const store = createRedisJobStore({ redis, keyPrefix: PREFIX })
    const savedState = watchSavedStates(store)
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [{ role: 'user', content: 'go' }], modelName: 'steps', serverToolNames: ['outside_tool', 'pure_tool'] })
    const enqueuer = createBullmqJobQueue<unknown>({ url: redisServer.url, name: queueName })
    queues.push(enqueuer)
    await enqueuer.enqueue(job.id, { kind: 'chat' })

    // Both tools are running on A (each counted its start); A dies there.
    await vi.waitFor(async () => expect(await redis.hgetall(`${PREFIX}tool-runs`)).toEqual({ 'outside_tool:call_out': '1', 'pure_tool:call_pure': '1' }), { timeout: 20_000, interval: 50 })
    a.child.kill('SIGKILL')
    const cutAt = (await store.readEvents<LoopEvent>(job.id, 0)).length

    // Instance B (this process) takes the chat over once A's lock lapsed.
    const parameters = { type: 'object' as const, properties: {} }
    const disposers = (['outside_tool', 'pure_tool'] as const).map(name => registerServerTool({ type: 'function', function: { name, parameters }, actsOutsideApp: name === 'outside_tool', approval: 'auto' }, async (_args, context) => {
      await redis.hincrby(`${PREFIX}tool-runs`, `${name}:${context.callId}`, 1)
      return `${name} ran on B`
    }, { runtime: 'server' }))
    const b = createBullmqJobQueue<unknown>({ url: redisServer.url, name: queueName, lockDurationMs: 1000, stalledIntervalMs: 200, attempts: 1 })
    queues.push(b)
    const model = createOpenAICompatibleModel({ baseURL: modelUrl, model: 'steps' })
    b.startWorker((jobId, _data, { attempt, signal }) => runChatJob(store, jobId, { model, attempt, signal, ownerId: 'instance-b', leaseRenewMs: 300 }))
    await vi.waitFor(async () => expect((await store.getJob(job.id))?.status).toBe('done'), { timeout: 20_000, interval: 100 })
    for (const dispose of disposers) dispose()

    expect(await redis.hgetall(`${PREFIX}tool-runs`)).toEqual({ 'outside_tool:call_out': '1', 'pure_tool:call_pure': '2' })
    // The model was asked for step 1 once (by A), then for step 2 with both results.
    expect(requests.map(request => stepOfRequest(JSON.stringify(request)))).toEqual([1, 2])
    const toolMessages = requests[1]!.messages.filter(message => message.role === 'tool')
    expect(toolMessages).toEqual([
      { role: 'tool', tool_call_id: 'call_out', name: 'outside_tool', content: `Error: ${INTERRUPTED_TOOL_MESSAGE}` },
      { role: 'tool', tool_call_id: 'call_pure', name: 'pure_tool', content: 'pure_tool ran on B' },
    ])

    const events = await store.readEvents<LoopEvent>(job.id, 0)
    expect(events.map(item => item.id)).toEqual(events.map((_, index) => index + 1))
    const afterCut = events.slice(cutAt).map(item => item.event)
    // B did not start step 1 again: it ended its calls, then went on with step 2.
    expect(events.filter(item => item.event.type === 'step-start').map(item => (item.event as { step: number }).step)).toEqual([1, 2])
    expect(afterCut.find(event => event.type === 'tool-call-error')).toMatchObject({ step: 1, result: { callId: 'call_out', status: 'error', error: { kind: 'interrupted', message: INTERRUPTED_TOOL_MESSAGE } } })
    expect(afterCut.filter(event => event.type === 'tool-call-running').map(event => (event as { call: { id: string } }).call.id)).toEqual(['call_pure'])
    expect(afterCut.find(event => event.type === 'tool-call-done')).toMatchObject({ step: 1, result: { callId: 'call_pure', content: 'pure_tool ran on B' } })
    expect(events.at(-1)!.event).toEqual({ type: 'finish', finishReason: 'stop', steps: 2 })
    const state = savedState(job.id)!
    expect(state.stepsDone).toBe(1)
    expect(state.messages.at(-1)).toEqual(toolMessages[1])
  })
})
