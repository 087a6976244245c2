import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as h3 from 'h3'
import { createStorage } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createInProcessJobQueue } from '~~/server/utils/background-jobs/queue/in-process-job-queue'
import { pipeJobEvents } from '~~/server/utils/background-jobs/events/job-event-stream'
import { RESTART_INTERRUPTION } from '~~/server/utils/background-jobs/store/job-record-persistence'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import type { ChatJobState, ChatQueueData } from '~~/server/utils/background-jobs/runner/stream-handler'
import { createScriptedModel, toolCallStep } from './helpers/scripted-model'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { listenApp } from './helpers/listen-app'

// The embedded instance (in-process queue, records under .data/jobs) restarts with jobs running and queued: the
// new process marks them interrupted, keeps what they had finished, and a tab reading their stream gets a clean
// end with the reason instead of reconnecting for ever.
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function storeOn(dir: string): JobStore {
  const store = createMemoryJobStore({ storage: createStorage({ driver: fsDriver({ base: dir }) }) })
  cleanups.push(() => store.close())
  return store
}

/** GET <base>/events/:id?after=N through pipeJobEvents, as the events route serves it. */
async function serveEvents(store: JobStore): Promise<string> {
  const app = h3.createApp()
  app.use('/events', h3.defineEventHandler(async (event) => {
    const [id, query] = (event.path.slice(1)).split('?')
    await pipeJobEvents(event, store, id!, Number(new URLSearchParams(query).get('after') ?? 0))
  }))
  const server = await listenApp(app)
  cleanups.push(server.close)
  return `${server.base}/events`
}

function parseSse(text: string): { id: number, event: LoopEvent }[] {
  return text.split('\n\n').filter(block => block.includes('data:')).map(block => ({
    id: Number(/^id: (\d+)$/m.exec(block)?.[1]),
    event: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as LoopEvent,
  }))
}

describe('an embedded instance that restarts with jobs in flight', () => {
  it('marks running and queued jobs interrupted with their finished steps kept, and ends their streams with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugboard-restart-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    cleanups.push(registerServerTool({ type: 'function', function: { name: 'restart_probe', parameters: { type: 'object', properties: {} } } }, () => 'probed', { runtime: 'server' }))
    const before = storeOn(dir)
    // One worker slot: the first job runs (and is cut mid step 2), the second waits in the queue.
    const queue = createInProcessJobQueue<ChatQueueData>({ concurrency: 1 })
    let stepTwo!: () => void
    const inStepTwo = new Promise<void>(resolve => (stepTwo = resolve))
    const model = createScriptedModel([
      toolCallStep([{ name: 'restart_probe', id: 'p1' }]),
      async function* () {
        yield { type: 'text-delta', text: 'Half an ans' }
        stepTwo()
        await new Promise(() => {})
      },
    ])
    queue.startWorker((jobId, _data, { signal }) => runChatJob(before, jobId, { model, signal }))
    const running = await createChatJob(before, { sessionId: 's1', threadId: 't1', messages: [{ role: 'user', content: 'probe' }], modelName: 'm', serverToolNames: ['restart_probe'] })
    const queued = await createChatJob(before, { sessionId: 's1', threadId: 't2', messages: [{ role: 'user', content: 'later' }], modelName: 'm', serverToolNames: [] })
    await queue.enqueue(running.id, { kind: 'chat' })
    await queue.enqueue(queued.id, { kind: 'chat' })
    await inStepTwo
    const seenBefore = (await before.readEvents<LoopEvent>(running.id, 0)).length
    // The process goes away: nothing more is written by it.
    void queue.close()
    await vi.waitUntil(async () => (await before.getJob(running.id))!.state && ((await before.getJob(running.id))!.state as ChatJobState).stepsDone === 1)

    const after = storeOn(dir)
    const cut = await after.getJob(running.id)
    expect(cut).toMatchObject({ status: 'interrupted', error: RESTART_INTERRUPTION })
    expect((cut!.state as ChatJobState).messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'p1', name: 'restart_probe', content: 'probed' })
    expect(await after.getJob(queued.id)).toMatchObject({ status: 'interrupted', error: RESTART_INTERRUPTION, state: { messages: [{ role: 'user', content: 'later' }] } })

    // A tab that recorded the first `seenBefore` events reads on: it gets one last event, the reason, and the end.
    const base = await serveEvents(after)
    const tail = parseSse(await (await fetch(`${base}/${running.id}?after=${seenBefore}`)).text())
    expect(tail).toEqual([{ id: seenBefore + 1, event: { type: 'fail', steps: 0, error: { kind: 'server', message: `${RESTART_INTERRUPTION} Press Retry.`, retryable: true, code: 'server.job.restarted', params: {} } } }])
    const never = parseSse(await (await fetch(`${base}/${queued.id}`)).text())
    expect(never.map(item => item.event.type)).toEqual(['fail'])
  })
})
