import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { createInProcessJobQueue } from '~~/server/utils/background-jobs/queue/in-process-job-queue'
import type { JobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import type { ChatJobState, ChatQueueData } from '~~/server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import { watchSavedStates } from './helpers/saved-states'

const disposers: Array<() => void> = []
const queues: JobQueue<ChatQueueData>[] = []
afterEach(async () => {
  for (const dispose of disposers.splice(0)) dispose()
  for (const queue of queues.splice(0)) await queue.close()
})

const user = { role: 'user' as const, content: 'hi' }
const noArgs = { type: 'object' as const, properties: {} }

async function finished(store: JobStore, jobId: string): Promise<void> {
  await vi.waitUntil(async () => ['done', 'failed', 'stopped'].includes((await store.getJob(jobId))?.status ?? ''), { timeout: 5000, interval: 5 })
}

describe('background chats through the job queue, taken over from the last finished step', () => {
  it('saves each finished step into the state, and a takeover goes on from it without running finished tools again', async () => {
    const first = vi.fn(() => 'one')
    const second = vi.fn(() => 'two')
    disposers.push(registerServerTool({ type: 'function', function: { name: 'takeover_first', parameters: noArgs } }, first, { runtime: 'server' }))
    disposers.push(registerServerTool({ type: 'function', function: { name: 'takeover_second', parameters: noArgs } }, second, { runtime: 'server' }))
    const store = createMemoryJobStore()
    const savedState = watchSavedStates(store)
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: ['takeover_first', 'takeover_second'] })

    // Run 1 (this "instance" dies in step 2): step 1 calls takeover_first, step 2's model request never answers.
    const dying = new AbortController()
    let stepTwoAsked!: () => void
    const askedTwice = new Promise<void>((resolve) => { stepTwoAsked = resolve })
    const modelA = createScriptedModel([
      toolCallStep([{ name: 'takeover_first', id: 'c1' }]),
      async function* (request) {
        stepTwoAsked()
        await new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(new DOMException('gone', 'AbortError'))))
        yield* []
      },
    ])
    const queueA = createInProcessJobQueue<ChatQueueData>({ backoffMs: 1 })
    queues.push(queueA)
    const attemptsA: number[] = []
    let runA!: Promise<void>
    queueA.startWorker((jobId, _data, { attempt, signal }) => {
      attemptsA.push(attempt)
      runA = runChatJob(store, jobId, { model: modelA, attempt, signal: AbortSignal.any([signal, dying.signal]) })
      return runA
    })
    await queueA.enqueue(job.id, { kind: 'chat' })
    await askedTwice
    const saved = (await store.getJob(job.id))!.state as ChatJobState
    expect(saved.stepsDone).toBe(1)
    expect(saved.messages).toEqual([
      user,
      { role: 'assistant', content: null, tool_calls: [expect.objectContaining({ id: 'c1', function: expect.objectContaining({ name: 'takeover_first' }) })] },
      { role: 'tool', tool_call_id: 'c1', name: 'takeover_first', content: 'one' },
    ])
    // The instance goes away mid-step: its run throws (not finished) and writes no end.
    dying.abort()
    await expect(runA).rejects.toThrow(/shutting down/)
    await queueA.close()
    expect(attemptsA[0]).toBe(1)
    const beforeTakeover = await store.readEvents<LoopEvent>(job.id, 0)
    expect(beforeTakeover.some(item => item.event.type === 'finish' || item.event.type === 'fail')).toBe(false)
    expect((await store.getJob(job.id))!.status).toBe('running')

    // Run 2 on another worker (attempt 2): goes on with step 2 from the saved messages.
    const modelB = createScriptedModel([toolCallStep([{ name: 'takeover_second', id: 'c2' }]), textStep('All done.')])
    const queueB = createInProcessJobQueue<ChatQueueData>({ backoffMs: 1 })
    queues.push(queueB)
    queueB.startWorker((jobId, _data, { signal }) => runChatJob(store, jobId, { model: modelB, attempt: 2, signal }))
    await queueB.enqueue(job.id, { kind: 'chat' })
    await finished(store, job.id)

    expect(first).toHaveBeenCalledOnce()
    expect(second).toHaveBeenCalledOnce()
    expect(modelB.requests[0]!.messages).toEqual(saved.messages)
    const events = await store.readEvents<LoopEvent>(job.id, 0)
    expect(events.map(item => item.id)).toEqual(events.map((_, index) => index + 1))
    const resumed = events.slice(beforeTakeover.length).map(item => item.event)
    expect(resumed[0]).toEqual({ type: 'step-start', step: 2 })
    expect(resumed.filter(event => event.type === 'tool-call-running').map(event => (event as { call: { id: string } }).call.id)).toEqual(['c2'])
    expect(resumed.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', steps: 3 })
    expect(events.filter(item => item.event.type === 'tool-call-done').length).toBe(2)
    const record = await store.getJob(job.id)
    expect(record).toMatchObject({ status: 'done' })
    expect(savedState(job.id)!.stepsDone).toBe(2)
    expect(record!.state).toBeUndefined()
    expect(JSON.stringify(record)).not.toMatch(/key/i)
  })

  it('a job already finished is not run again by a late takeover', async () => {
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: [] })
    await runChatJob(store, job.id, { model: createScriptedModel([textStep('ok')]) })
    const count = (await store.readEvents(job.id, 0)).length
    const model = createScriptedModel([])
    await runChatJob(store, job.id, { model, attempt: 2 })
    expect(model.requests).toHaveLength(0)
    expect(await store.readEvents(job.id, 0)).toHaveLength(count)
  })
})
