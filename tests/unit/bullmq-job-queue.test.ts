// The queue on Redis, as two or three app instances behind one Redis would use it.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createBullmqJobQueue } from '~~/server/utils/background-jobs/queue/bullmq-job-queue'
import type { BullmqJobQueueOptions } from '~~/server/utils/background-jobs/queue/bullmq-job-queue'
import { createJobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import type { JobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import { startRedisServer } from './helpers/redis-server'
import type { RedisServer } from './helpers/redis-server'

let server: RedisServer
let run = 0
const queues: JobQueue<unknown>[] = []
const children: ChildProcess[] = []

beforeAll(async () => {
  server = await startRedisServer()
})

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await Promise.all(queues.splice(0).map(queue => queue.close()))
  vi.restoreAllMocks()
})

afterAll(async () => {
  await server?.stop()
})

/** One app instance's queue on the shared Redis; `name` keeps each test's jobs apart. */
function instance<T>(name: string, options: Partial<BullmqJobQueueOptions> = {}): JobQueue<T> {
  const queue = createBullmqJobQueue<T>({ url: server.url, name, ...options })
  queues.push(queue as JobQueue<unknown>)
  return queue
}

function queueName(): string {
  return `test-queue-${++run}`
}

/** Starts queue-worker-process.ts and resolves with the lines it prints, as they come. */
function startWorkerProcess(name: string): { lines: string[], child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(process.cwd(), 'tests/unit/helpers/queue-worker-process.ts')], {
    env: { ...process.env, REDIS_URL: server.url, QUEUE_NAME: name },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const lines: string[] = []
  let partial = ''
  child.stdout!.on('data', (data: Buffer) => {
    const text = partial + data.toString()
    const complete = text.split('\n')
    partial = complete.pop()!
    lines.push(...complete)
  })
  return { lines, child }
}

describe('BullMQ job queue', () => {
  it('runs a job enqueued on instance A with instance B\'s worker', async () => {
    const name = queueName()
    const onA = instance<{ threadId: string }>(name)
    const onB = instance<{ threadId: string }>(name)
    await onA.enqueue('job-from-a', { threadId: 'thread-1' })
    const runs: unknown[] = []
    onB.startWorker(async (jobId, data, { attempt }) => { runs.push({ jobId, data, attempt }) })
    await vi.waitFor(() => expect(runs).toEqual([{ jobId: 'job-from-a', data: { threadId: 'thread-1' }, attempt: 1 }]), { timeout: 10_000 })
  })

  it('retries a handler that throws, with backoff, until it succeeds', async () => {
    const name = queueName()
    const queue = instance<null>(name, { attempts: 3, backoffMs: 10 })
    const attempts: number[] = []
    let done = false
    queue.startWorker(async (_jobId, _data, { attempt }) => {
      attempts.push(attempt)
      if (attempt < 3) throw new Error('provider down')
      done = true
    })
    await queue.enqueue('flaky', null)
    await vi.waitFor(() => expect(done).toBe(true), { timeout: 10_000 })
    expect(attempts).toEqual([1, 2, 3])
  })

  it('does not queue a job id twice while it waits', async () => {
    const name = queueName()
    const queue = instance<string>(name)
    await queue.enqueue('same', 'first')
    await queue.enqueue('same', 'second')
    await queue.enqueue('other', 'other')
    const runs: string[] = []
    queue.startWorker(async (_jobId, data) => { runs.push(data) })
    await vi.waitFor(() => expect(runs.sort()).toEqual(['first', 'other']), { timeout: 10_000 })
  })

  it('when the instance running a job is SIGKILLed, another instance\'s worker takes the job over', async () => {
    const name = queueName()
    const doomed = startWorkerProcess(name)
    await vi.waitFor(() => expect(doomed.lines).toContain('ready'), { timeout: 15_000 })
    const onA = instance<{ step: number }>(name)
    await onA.enqueue('long-chat', { step: 2 })
    await vi.waitFor(() => expect(doomed.lines).toContain('started long-chat 1'), { timeout: 10_000 })
    doomed.child.kill('SIGKILL')

    // Instance B starts only now, so the job can reach it only by being taken over.
    const onB = instance<{ step: number }>(name, { stalledIntervalMs: 200, lockDurationMs: 1000 })
    const runs: unknown[] = []
    onB.startWorker(async (jobId, data, { attempt }) => { runs.push({ jobId, data, attempt }) })
    await vi.waitFor(() => expect(runs).toEqual([{ jobId: 'long-chat', data: { step: 2 }, attempt: 2 }]), { timeout: 15_000, interval: 100 })
  })

  it('on close, aborts running handlers\' signals', async () => {
    const name = queueName()
    const queue = createBullmqJobQueue<null>({ url: server.url, name })
    let signal: AbortSignal | undefined
    queue.startWorker(async (_jobId, _data, context) => {
      signal = context.signal
      await new Promise(resolve => context.signal.addEventListener('abort', resolve))
      throw new Error('stopped by close')
    })
    await queue.enqueue('long-chat', null)
    await vi.waitFor(() => expect(signal).toBeDefined(), { timeout: 10_000 })
    await queue.close()
    expect(signal!.aborted).toBe(true)
  })
})

describe('createJobQueue', () => {
  it('with a Redis URL, gives queues that share jobs through Redis', async () => {
    const onA = createJobQueue<string>({ redisUrl: server.url })
    const onB = createJobQueue<string>({ redisUrl: server.url })
    queues.push(onA as JobQueue<unknown>, onB as JobQueue<unknown>)
    const runs: string[] = []
    onB.startWorker(async (_jobId, data) => { runs.push(data) })
    await onA.enqueue(crypto.randomUUID(), 'through redis')
    await vi.waitFor(() => expect(runs).toEqual(['through redis']), { timeout: 10_000 })
  })
})
