import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createInProcessJobQueue } from '~~/server/utils/background-jobs/queue/in-process-job-queue'
import type { JobQueue } from '~~/server/utils/background-jobs/queue/job-queue'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import type { ChatJobState, ChatQueueData } from '~~/server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { startWorkflowRun, workflowToolHandlers, WorkflowRunError } from '~~/server/utils/workflows/background-execution'
import { workflowInputSchema } from '~~/server/utils/workflows/workflow-types'
import type { Workflow } from '~~/server/utils/workflows/workflow-types'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import { watchSavedStates } from './helpers/saved-states'

const disposers: Array<() => void | Promise<void>> = []
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose()
})

const noArgs = { type: 'object' as const, properties: {} }
let clock = 1_000
function workflow(patch: Partial<Workflow> = {}): Workflow {
  clock += 1
  return { id: `wf-${clock}`, sessionId: 'session-a', name: 'Daily digest', systemPrompt: 'Be brief.', model: 'fake/tools', tools: [], firstMessage: 'Summarise today.', createdAt: clock, updatedAt: clock, ...patch }
}

describe('workflow input', () => {
  it('refuses what is missing, too long or unknown, with a message in words', () => {
    const bad = (body: unknown) => workflowInputSchema.safeParse(body).error?.issues[0]?.message
    expect(bad({ name: '', model: 'm' })).toBe('Give the workflow a name.')
    expect(bad({ name: 'x', model: 'm', systemPrompt: 'a'.repeat(8001) })).toMatch(/too long/)
    expect(bad({ name: 'x', model: 'm', tools: Array.from({ length: 65 }, (_, n) => `t${n}`) })).toBeDefined()
    expect(bad({ name: 'x', model: 'm', sessionId: 'someone-else' })).toBeDefined()
    expect(workflowInputSchema.parse({ name: ' Digest ', model: 'fake/tools' })).toEqual({ name: 'Digest', model: 'fake/tools', systemPrompt: '', tools: [] })
  })
})

describe('background execution', () => {
  it('maps listServerTools() into handlers, honouring the workflow\'s switches and leaving client tools out', async () => {
    disposers.push(registerServerTool({ type: 'function', function: { name: 'wf_on', parameters: noArgs } }, () => 'on ran', { runtime: 'server' }))
    disposers.push(registerServerTool({ type: 'function', function: { name: 'wf_off', parameters: noArgs } }, () => 'off ran', { runtime: 'server' }))
    disposers.push(registerServerTool({ type: 'function', function: { name: 'wf_client', parameters: noArgs } }, () => 'never', { runtime: 'client' }))
    const handlers = workflowToolHandlers({ tools: ['wf_on', 'wf_client', 'not_registered'] })
    expect(Object.keys(handlers)).toEqual(['wf_on'])
    expect(await handlers.wf_on!('{}')).toBe('on ran')
    expect(await handlers.wf_on!('{not json')).toMatch(/^Error: /)
  })

  it('runs as a background chat: system prompt and first message, only its switched-on tools, through the queue', async () => {
    const onTool = vi.fn(() => '3 new issues')
    disposers.push(registerServerTool({ type: 'function', function: { name: 'wf_count', parameters: noArgs } }, onTool, { runtime: 'server' }))
    disposers.push(registerServerTool({ type: 'function', function: { name: 'wf_unused', parameters: noArgs } }, () => 'x', { runtime: 'server' }))
    const store = createMemoryJobStore()
    const savedState = watchSavedStates(store)
    const model = createScriptedModel([toolCallStep([{ name: 'wf_count', id: 'w1' }]), textStep('Three new issues today.')])
    const queue: JobQueue<ChatQueueData> = createInProcessJobQueue<ChatQueueData>()
    disposers.push(() => queue.close())
    queue.startWorker((jobId, _data, { signal }) => runChatJob(store, jobId, { model, signal }))

    const job = await startWorkflowRun(store, queue, workflow({ tools: ['wf_count'] }), { sessionId: 'session-a', threadId: 'thread-1' })
    expect(job).toMatchObject({ sessionId: 'session-a', threadId: 'thread-1', kind: 'chat' })
    await vi.waitUntil(async () => (await store.getJob(job.id))?.status === 'done', { timeout: 5000, interval: 5 })
    expect(model.requests[0]!.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Summarise today.' }])
    expect(model.requests[0]!.tools?.map(tool => tool.function.name)).toEqual(['wf_count'])
    expect(onTool).toHaveBeenCalledOnce()
    const events = (await store.readEvents<LoopEvent>(job.id, 0)).map(item => item.event)
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', steps: 2 })
    expect(savedState(job.id)!.serverToolNames).toEqual(['wf_count'])
  })

  it('asks the run\'s own message instead of the first one, and refuses a run with nothing to ask', async () => {
    const store = createMemoryJobStore()
    const queue = createInProcessJobQueue<ChatQueueData>()
    disposers.push(() => queue.close())
    const job = await startWorkflowRun(store, queue, workflow(), { sessionId: 'session-a', threadId: 't', message: 'Only the bugs, please.' })
    expect(((await store.getJob(job.id))!.state as ChatJobState).messages.at(-1)).toEqual({ role: 'user', content: 'Only the bugs, please.' })
    await expect(startWorkflowRun(store, queue, workflow({ firstMessage: undefined }), { sessionId: 'session-a', threadId: 't' })).rejects.toBeInstanceOf(WorkflowRunError)
    await expect(startWorkflowRun(store, queue, workflow({ firstMessage: '  ' }), { sessionId: 'session-a', threadId: 't', message: ' ' })).rejects.toThrow(/no first message/)
  })
})
