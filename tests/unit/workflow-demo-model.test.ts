import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createInProcessJobQueue } from '~~/server/utils/background-jobs/queue/in-process-job-queue'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import type { ChatJobState, ChatQueueData } from '~~/server/utils/background-jobs/runner/stream-handler'
import { createServerChatModel } from '~~/server/utils/background-jobs/runner/server-chat-model'
import { jobNeedsServerKey } from '~~/server/utils/background-jobs/runner/job-needs-key'
import { startWorkflowRun } from '~~/server/utils/workflows/background-execution'
import { workflowInputSchema } from '~~/server/utils/workflows/workflow-types'
import type { Workflow } from '~~/server/utils/workflows/workflow-types'
import { DEMO_MODEL_ID } from '~~/server/utils/demo-model/demo-models'
import { createDemoChatModel } from '~~/server/utils/demo-model/demo-chat-model'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { runChatLoop } from '#shared/loop/run-chat-loop'

const disposers: Array<() => void | Promise<void>> = []
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose()
})

function workflow(patch: Partial<Workflow> = {}): Workflow {
  return { id: 'wf-1', sessionId: 's', name: 'Greeter', systemPrompt: 'Be brief.', model: DEMO_MODEL_ID, tools: [], firstMessage: 'hello', createdAt: 1, updatedAt: 1, ...patch }
}

describe('the demo model on the server', () => {
  it('answers in this process, without a key or a network', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    disposers.push(() => fetchSpy.mockRestore())
    const events: LoopEvent[] = []
    const result = await runChatLoop({
      model: createServerChatModel({ apiKey: '', baseUrl: 'http://127.0.0.1:9/none', model: DEMO_MODEL_ID }),
      messages: [{ role: 'user', content: 'hello' }],
      tools: toolSetFromArray([]),
      threadId: 't',
      parameters: { temperature: 0.5 },
      onEvent: (event) => { events.push(event) },
    })
    expect(result.finishReason).toBe('stop')
    expect(events.filter(event => event.type === 'text-delta').map(event => (event as { text: string }).text).join('')).not.toBe('')
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('says what is wrong with a request it cannot read, as a provider error', async () => {
    const result = await runChatLoop({ model: createDemoChatModel(), messages: [], tools: toolSetFromArray([]), threadId: 't' })
    expect(result.finishReason).toBe('error')
    expect(result.error?.message).toMatch(/messages/)
  })
})

describe('a workflow on the demo model', () => {
  it('runs as a background chat without the server\'s key, with its system prompt and parameters', async () => {
    const store = createMemoryJobStore()
    const queue = createInProcessJobQueue<ChatQueueData>()
    disposers.push(() => queue.close())
    const requests: Record<string, unknown>[] = []
    const demo = createDemoChatModel()
    queue.startWorker((jobId, _data, { signal }) => runChatJob(store, jobId, {
      signal,
      model: { stream: (request) => {
        requests.push({ messages: request.messages, parameters: request.parameters })
        return demo.stream(request)
      } },
    }))
    const job = await startWorkflowRun(store, queue, workflow({ parameters: { temperature: 0.1, maxTokens: 200 } }), { sessionId: 's', threadId: 't' })
    expect(await jobNeedsServerKey(store, job.id)).toBe(false)
    await vi.waitUntil(async () => (await store.getJob(job.id))?.status === 'done', { timeout: 5000, interval: 5 })
    expect(requests[0]).toEqual({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello' }], parameters: { temperature: 0.1, maxTokens: 200 } })
    const events = (await store.readEvents<LoopEvent>(job.id, 0)).map(item => item.event)
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' })
  })

  it('still needs the key on any other model', async () => {
    const store = createMemoryJobStore()
    const queue = createInProcessJobQueue<ChatQueueData>()
    disposers.push(() => queue.close())
    const job = await startWorkflowRun(store, queue, workflow({ model: 'openai/gpt-4o' }), { sessionId: 's', threadId: 't' })
    expect(await jobNeedsServerKey(store, job.id)).toBe(true)
    expect(((await store.getJob(job.id))!.state as ChatJobState).parameters).toBeUndefined()
  })

  it('refuses parameters out of range with the chat\'s message', () => {
    const bad = (parameters: unknown) => workflowInputSchema.safeParse({ name: 'x', model: 'm', parameters }).error?.issues[0]?.message
    expect(bad({ temperature: 3 })).toBe('Temperature must be a number from 0 to 2.')
    expect(bad({ maxTokens: -1 })).toMatch(/whole number/)
    expect(bad({ temperature: 1 })).toBeUndefined()
  })
})
