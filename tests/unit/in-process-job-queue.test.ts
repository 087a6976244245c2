import { afterEach, describe, expect, it, vi } from 'vitest'
import { createInProcessJobQueue } from '~~/server/utils/background-jobs/queue/in-process-job-queue'
import { createJobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import type { JobQueue, QueuedJobContext } from '~~/server/utils/background-jobs/queue/job-queue'

const queues: JobQueue<unknown>[] = []
function track<T>(queue: JobQueue<T>): JobQueue<T> {
  queues.push(queue as JobQueue<unknown>)
  return queue
}

afterEach(async () => {
  await Promise.all(queues.splice(0).map(queue => queue.close()))
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** A promise and its resolver, to hold a handler until the test lets it go. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { open, opened }
}

describe('in-process job queue', () => {
  it('runs an enqueued job with its data, soon after enqueue returns rather than inside it', async () => {
    const queue = track(createJobQueue<{ threadId: string }>())
    const runs: { jobId: string, data: unknown, attempt: number }[] = []
    queue.startWorker(async (jobId, data, { attempt }) => { runs.push({ jobId, data, attempt }) })
    await queue.enqueue('job-1', { threadId: 'thread-1' })
    expect(runs).toEqual([])
    await vi.waitFor(() => expect(runs).toEqual([{ jobId: 'job-1', data: { threadId: 'thread-1' }, attempt: 1 }]))
  })

  it('keeps jobs enqueued before the worker starts, and runs them when it does', async () => {
    const queue = track(createInProcessJobQueue<number>())
    await queue.enqueue('early-1', 1)
    await queue.enqueue('early-2', 2)
    const seen: number[] = []
    queue.startWorker(async (_jobId, data) => { seen.push(data) })
    await vi.waitFor(() => expect(seen).toEqual([1, 2]))
  })

  it('runs at most `concurrency` jobs at once and all of them in the end', async () => {
    const queue = track(createInProcessJobQueue<number>({ concurrency: 2 }))
    const gates = [gate(), gate(), gate(), gate(), gate()]
    let running = 0
    let most = 0
    const finished: number[] = []
    queue.startWorker(async (_jobId, index) => {
      running += 1
      most = Math.max(most, running)
      await gates[index]!.opened
      running -= 1
      finished.push(index)
    })
    for (const index of [0, 1, 2, 3, 4]) await queue.enqueue(`job-${index}`, index)
    await vi.waitFor(() => expect(running).toBe(2))
    for (const { open } of gates) open()
    await vi.waitFor(() => expect(finished).toHaveLength(5))
    expect(most).toBe(2)
  })

  it('does not queue a job id twice while it waits or runs', async () => {
    const queue = track(createInProcessJobQueue<string>())
    const held = gate()
    const runs: string[] = []
    queue.startWorker(async (_jobId, data) => { runs.push(data); await held.opened })
    await queue.enqueue('same', 'first')
    await queue.enqueue('same', 'second')
    await vi.waitFor(() => expect(runs).toEqual(['first']))
    await queue.enqueue('same', 'while running')
    held.open()
    await queue.enqueue('other', 'other')
    await vi.waitFor(() => expect(runs).toEqual(['first', 'other']))
  })

  it('retries a handler that throws, waiting backoffMs then twice as long, and gives up after `attempts`', async () => {
    vi.useFakeTimers()
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    const queue = track(createInProcessJobQueue<null>({ attempts: 3, backoffMs: 1000 }))
    const attempts: number[] = []
    queue.startWorker(async (_jobId, _data, { attempt }) => {
      attempts.push(attempt)
      throw new Error('provider down')
    })
    await queue.enqueue('flaky', null)
    await vi.advanceTimersByTimeAsync(0)
    expect(attempts).toEqual([1])
    await vi.advanceTimersByTimeAsync(999)
    expect(attempts).toEqual([1])
    await vi.advanceTimersByTimeAsync(1)
    expect(attempts).toEqual([1, 2])
    await vi.advanceTimersByTimeAsync(1999)
    expect(attempts).toEqual([1, 2])
    await vi.advanceTimersByTimeAsync(1)
    expect(attempts).toEqual([1, 2, 3])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(attempts).toEqual([1, 2, 3])
    expect(quiet).toHaveBeenCalledWith('[job-queue]', expect.objectContaining({ message: 'Job flaky failed 3 times; giving up.' }))
  })

  it('on close, aborts running handlers\' signals, waits for them and takes no more jobs', async () => {
    const queue = createInProcessJobQueue<null>()
    let context: QueuedJobContext | undefined
    let settled = false
    queue.startWorker(async (_jobId, _data, given) => {
      context = given
      await new Promise(resolve => given.signal.addEventListener('abort', resolve))
      settled = true
      throw new Error('stopped')
    })
    await queue.enqueue('long-chat', null)
    await vi.waitFor(() => expect(context).toBeDefined())
    expect(context!.signal.aborted).toBe(false)
    await queue.close()
    expect(context!.signal.aborted).toBe(true)
    expect(settled).toBe(true)
    await expect(queue.enqueue('late', null)).rejects.toThrow('closed')
  })

  it('refuses job ids that BullMQ could not take, so both queues accept the same ids', async () => {
    const queue = track(createInProcessJobQueue<null>())
    await expect(queue.enqueue('12345', null)).rejects.toThrow(TypeError)
    await expect(queue.enqueue('a:b', null)).rejects.toThrow(TypeError)
    await expect(queue.enqueue('', null)).rejects.toThrow(TypeError)
    await expect(queue.enqueue(crypto.randomUUID(), null)).resolves.toBeUndefined()
  })
})
