import { describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'

const user = { role: 'user' as const, content: 'hi' }

describe('a background chat run holds its job by a lease', () => {
  it('stops at once, writing nothing more, when its renewal finds the job claimed by another run', async () => {
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: [] })
    let modelSignal: AbortSignal | undefined
    // The model never answers by itself: this run writes nothing while it waits, only its renewals tell.
    const model = createScriptedModel([async function* (request) {
      modelSignal = request.signal
      await new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
      yield* []
    }])
    const run = runChatJob(store, job.id, { model, ownerId: 'stalled', leaseRenewMs: 10 })
    await vi.waitUntil(() => modelSignal !== undefined)
    const eventsBefore = await store.readEvents(job.id, 0)
    const takenOver = await store.claimJob(job.id, { ownerId: 'successor' })

    await run
    expect(modelSignal!.aborted).toBe(true)
    expect(await store.readEvents(job.id, 0)).toEqual(eventsBefore)
    expect(await store.getJob(job.id)).toMatchObject({ status: 'running', ownerId: 'successor', runToken: takenOver!.runToken })
  })

  it('runs no tool of a step whose events it may no longer write', async () => {
    const tool = vi.fn(() => 'ran')
    const dispose = registerServerTool({ type: 'function', function: { name: 'lease_tool', parameters: { type: 'object', properties: {} } } }, tool, { runtime: 'server' })
    const store = createMemoryJobStore()
    const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], modelName: 'scripted', serverToolNames: ['lease_tool'] })
    let release!: () => void
    const released = new Promise<void>(resolve => (release = resolve))
    let asked!: () => void
    const modelAsked = new Promise<void>(resolve => (asked = resolve))
    // The step's answer (a call to lease_tool) arrives only after another run claimed the job.
    const model = createScriptedModel([async function* () {
      asked()
      await released
      yield* toolCallStep([{ name: 'lease_tool', id: 'c1' }])
    }, textStep('never asked')])
    const run = runChatJob(store, job.id, { model, ownerId: 'stalled', leaseRenewMs: 60_000 })
    await modelAsked
    await store.claimJob(job.id, { ownerId: 'successor' })
    release()
    await run
    expect(tool).not.toHaveBeenCalled()
    expect(model.requests).toHaveLength(1)
    const events = await store.readEvents<LoopEvent>(job.id, 0)
    expect(events.map(item => item.event.type)).toEqual(['step-start'])
    dispose()
  })
})
