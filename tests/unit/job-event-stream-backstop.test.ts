import * as h3 from 'h3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { pipeJobEvents } from '~~/server/utils/background-jobs/events/job-event-stream'
import type { JobEvent, JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { createChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { endHeldStreams } from '~~/server/utils/http/held-streams'
import { listenApp } from './helpers/listen-app'

// A tab reading a background chat's events must reach the chat's end even when the live feed fails it: Redis
// pub/sub drops what it could not push, and a store can fail after the stream's headers went out. The soak
// (`npm run soak`) saw streams that only sent keep-alives for two minutes while their jobs had finished.
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  vi.restoreAllMocks()
})

async function serveEvents(store: JobStore, jobId: string): Promise<string> {
  const app = h3.createApp()
  app.use('/events', h3.defineEventHandler(event => pipeJobEvents(event, store, jobId, 0, { backstopMs: 50 })))
  const server = await listenApp(app)
  cleanups.push(server.close)
  return `${server.base}/events`
}

async function newJob(store: JobStore): Promise<string> {
  const job = await createChatJob(store, { sessionId: 's1', threadId: 't1', messages: [{ role: 'user', content: 'hi' }], modelName: 'm', serverToolNames: [] })
  return job.id
}

const frameIds = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map(match => Number(match[1]))

/** Opens the event stream at `url` and reads it until its first event (the backlog's) has arrived. */
async function openAtFirstEvent(url: string) {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes('id: 1\n')) text += decoder.decode((await reader.read()).value, { stream: true })
  /** Reads on to the stream's end; everything it carried, from its start. */
  const readToEnd = async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true })
    return text
  }
  return { readToEnd }
}

describe('the event stream of a background chat', () => {
  it('reads the store itself when the live feed lost the rest of the run, and ends with it', async () => {
    const store = createMemoryJobStore()
    cleanups.push(() => store.close())
    const jobId = await newJob(store)
    await store.appendEvent<LoopEvent>(jobId, { type: 'step-start', step: 1 })
    // The backlog arrives; every publication after it is lost (an outage of the pub/sub connection).
    const deaf: JobStore = {
      ...store,
      subscribe: async <T>(id: string, afterId: number, onEvent: (item: JobEvent<T>) => void) => {
        for (const item of await store.readEvents<T>(id, afterId)) onEvent(item)
      },
    }
    // The stream has its backlog (and has looked at the job, still running) before the run goes on.
    const stream = await openAtFirstEvent(await serveEvents(deaf, jobId))
    await store.appendEvent<LoopEvent>(jobId, { type: 'text-delta', step: 1, text: 'Hello' })
    await store.appendEvent<LoopEvent>(jobId, { type: 'finish', finishReason: 'stop', steps: 1 })
    await store.updateJob(jobId, { status: 'done' })

    const text = await stream.readToEnd()
    expect(frameIds(text)).toEqual([1, 2, 3])
    expect(text).toContain('"type":"finish"')
  })

  it('ends the response when the store fails after the headers went out, so the tab reconnects', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const store = createMemoryJobStore()
    cleanups.push(() => store.close())
    const jobId = await newJob(store)
    const failing: JobStore = { ...store, subscribe: () => Promise.reject(new Error('Connection is closed.')) }
    const url = await serveEvents(failing, jobId)

    const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
    expect(console.error).toHaveBeenCalledWith('[job-store]', expect.objectContaining({ message: expect.stringContaining(jobId) }))
  })

  it('ends at shutdown with what it sent, so the tab reads on from there elsewhere, and is held no more', async () => {
    const store = createMemoryJobStore()
    cleanups.push(() => store.close())
    const jobId = await newJob(store)
    await store.appendEvent<LoopEvent>(jobId, { type: 'step-start', step: 1 })
    const stream = await openAtFirstEvent(await serveEvents(store, jobId))

    // the job runs on; the instance is asked to stop
    expect(endHeldStreams()).toBe(1)
    expect(frameIds(await stream.readToEnd())).toEqual([1])
    expect(endHeldStreams()).toBe(0)
  })
})
