import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createLoopRecorder } from '~/db/loop-recorder'
import { listMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { getServerJob, setServerJob } from '~/db/server-jobs'
import type { ServerJobRecord } from '~/db/types'
import { followServerChat } from '~/utils/chat/server-chats/server-chat'
// a task of its own (a message, not a timer: the first test fakes those)
import { nextTask } from '~/utils/chat/scheduling/yield-to-page'
import { useFreshDatabase } from './helpers/fresh-database'

// A server-run chat's rows and the id of the last event they hold are stored together (a checkpoint), so a tab that
// reloads or comes back reads on exactly where its rows end: no word lost, none written twice. A reply that arrives
// at loopback speed in many network chunks is checkpointed a few times, not once per chunk: each checkpoint writes
// the whole reply row, which re-reads the message list. The id goes to a table of its own, never to the thread row:
// a thread write re-reads the sidebar and, with sync on, sends the chat again, four times a second.

const database = useFreshDatabase('server-chat-checkpoint')

const frame = (id: number, event: LoopEvent) => `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`
const words = Array.from({ length: 300 }, (_, index) => `word${index} `)
const reply: LoopEvent[] = [
  { type: 'step-start', step: 1 },
  ...words.map(text => ({ type: 'text-delta' as const, step: 1, text })),
  { type: 'step-finish', step: 1, message: { role: 'assistant', content: words.join('') }, finishReason: 'stop' },
  { type: 'finish', finishReason: 'stop', steps: 1 } as LoopEvent,
]
/** Event `id` (from 1) is `reply[id - 1]`: the text a row holds once it recorded every event up to `id`. */
const textUpTo = (id: number) => words.slice(0, Math.max(0, Math.min(id - 1, words.length))).join('')

/**
 * A response of `frames`, one network chunk of `perChunk` frames per task (as a socket delivers them); `open`
 * leaves the connection hanging after them.
 */
function eventStream(frames: string[], perChunk: number, options: { open?: boolean } = {}): Response {
  const encoder = new TextEncoder()
  let next = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next >= frames.length) {
        if (!options.open) controller.close()
        return new Promise<void>(() => {})
      }
      await nextTask()
      controller.enqueue(encoder.encode(frames.slice(next, next += perChunk).join('')))
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } })
}

/** A response whose chunks are made as they are read, one per task (each may move the page's clock first). */
function slowStream(chunks: Array<() => string>): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.shift()
      if (!next) return controller.close()
      await nextTask()
      controller.enqueue(encoder.encode(next()))
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } })
}

/** Serves the job's event stream from `answers` in turn; anything else (the job's pending questions) finds nothing. */
function serve(answers: Array<() => Response>) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.includes('/events?') && answers.shift()?.()) || new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } })))
}

let threadId: string
beforeEach(async () => {
  threadId = (await createThread()).id
  await setServerJob(threadId, { id: 'job-1', lastEventId: 0 })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** What the reply row held each time the thread's last event id was stored. */
function watchCheckpoints() {
  const checkpoints: Array<{ lastEventId: number, content: string }> = []
  const jobs = database().serverJobs
  const put = jobs.put.bind(jobs)
  const watched = async (job: ServerJobRecord) => {
    checkpoints.push({ lastEventId: job.lastEventId, content: (await listMessages(threadId)).find(row => row.role === 'assistant')?.content ?? '' })
    return put(job)
  }
  vi.spyOn(jobs, 'put').mockImplementation(watched as unknown as typeof put)
  return checkpoints
}

describe('following a server-run chat', () => {
  it('stores the rows and the last event id together a few times for a reply that arrives in many chunks', async () => {
    // The page's clock stands still: the whole reply arrives within one checkpoint interval.
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] })
    serve([() => eventStream(reply.map((event, index) => frame(index + 1, event)), 10)])
    const checkpoints = watchCheckpoints()
    const recorder = createLoopRecorder({ threadId, writeIntervalMs: Number.POSITIVE_INFINITY })
    await recorder.start()
    expect(await followServerChat({ threadId, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })).toBe('ended')
    // 31 network chunks within one interval: one checkpoint after the first, and the end clears the job
    expect(checkpoints).toHaveLength(1)
    for (const checkpoint of checkpoints) expect(checkpoint.content).toBe(textUpTo(checkpoint.lastEventId))
    expect(await getServerJob(threadId)).toBeUndefined()
    expect((await listMessages(threadId)).find(row => row.role === 'assistant')).toMatchObject({ content: words.join(''), status: 'complete' })
  })

  it('checkpoints a reply that takes seconds many times without writing the thread row each time', async () => {
    // A network chunk every 300 ms of the page's clock: each batch is past the checkpoint interval.
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] })
    const frames = reply.map((event, index) => frame(index + 1, event))
    const chunks = Array.from({ length: Math.ceil(frames.length / 10) }, (_, index) => () => {
      vi.advanceTimersByTime(300)
      return frames.slice(index * 10, index * 10 + 10).join('')
    })
    serve([() => slowStream(chunks)])
    const checkpoints = watchCheckpoints()
    let threadWrites = 0
    database().threads.hook('updating', () => void threadWrites++)
    database().threads.hook('creating', () => void threadWrites++)
    const recorder = createLoopRecorder({ threadId, writeIntervalMs: Number.POSITIVE_INFINITY })
    await recorder.start()
    expect(await followServerChat({ threadId, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })).toBe('ended')
    expect(checkpoints.length).toBeGreaterThanOrEqual(4)
    for (const checkpoint of checkpoints) expect(checkpoint.content).toBe(textUpTo(checkpoint.lastEventId))
    // The reply's row was added once (the thread's leaf moved); the checkpoints went to `serverJobs` alone.
    expect(threadWrites).toBeLessThanOrEqual(2)
    expect(await getServerJob(threadId)).toBeUndefined()
    expect((await listMessages(threadId)).find(row => row.role === 'assistant')).toMatchObject({ content: words.join(''), status: 'complete' })
  })

  it('stores what it recorded when the tab leaves mid-reply, and reading on from there writes each word once', async () => {
    const frames = reply.map((event, index) => frame(index + 1, event))
    serve([() => eventStream(frames.slice(0, 150), 10, { open: true })])
    const checkpoints = watchCheckpoints()
    const first = createLoopRecorder({ threadId, writeIntervalMs: Number.POSITIVE_INFINITY })
    await first.start()
    let recorded = 0
    const leave = new AbortController()
    const following = followServerChat({ threadId, jobId: 'job-1', afterId: 0, recorder: first, signal: leave.signal, onEvent: () => recorded++ })
    await vi.waitFor(() => expect(recorded).toBe(150))
    leave.abort()
    expect(await following).toBe('closed')
    const job = (await getServerJob(threadId))!
    expect(job).toMatchObject({ id: 'job-1', lastEventId: 150, step: 1 })
    const rows = await listMessages(threadId)
    expect(rows.find(row => row.role === 'assistant')?.content).toBe(textUpTo(150))
    for (const checkpoint of checkpoints) expect(checkpoint.content).toBe(textUpTo(checkpoint.lastEventId))

    // The tab comes back: it reads on from the stored id into the same row.
    serve([() => eventStream(frames.slice(job.lastEventId), 10)])
    const second = createLoopRecorder({ threadId, resumeFrom: rows, resumeStep: job.step, writeIntervalMs: Number.POSITIVE_INFINITY })
    expect(await followServerChat({ threadId, jobId: 'job-1', afterId: job.lastEventId, recorder: second, signal: new AbortController().signal })).toBe('ended')
    const assistants = (await listMessages(threadId)).filter(row => row.role === 'assistant')
    expect(assistants).toHaveLength(1)
    expect(assistants[0]).toMatchObject({ content: words.join(''), status: 'complete' })
  })
})
