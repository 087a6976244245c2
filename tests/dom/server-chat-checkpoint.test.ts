import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { createLoopRecorder } from '~/db/loop-recorder'
import { listMessages } from '~/db/messages'
import { createThread, getThread } from '~/db/threads'
import { followServerChat, setServerJob } from '~/utils/chat/server-chats/server-chat'
// a task of its own (a message, not a timer: the first test fakes those)
import { nextTask } from '~/utils/chat/scheduling/yield-to-page'
import { useFreshDatabase } from './helpers/fresh-database'

// A server-run chat's rows and the id of the last event they hold are stored together (a checkpoint), so a tab that
// reloads or comes back reads on exactly where its rows end: no word lost, none written twice. A reply that arrives
// at loopback speed in many network chunks is checkpointed a few times, not once per chunk: each checkpoint writes
// the whole reply row and the thread row, and every write re-reads the message list and the sidebar.

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
  const threads = database().threads
  const update = threads.update.bind(threads)
  const watched = async (...[key, changes]: Parameters<typeof update>) => {
    const job = (changes as { serverJob?: { lastEventId: number } }).serverJob
    if (job) checkpoints.push({ lastEventId: job.lastEventId, content: (await listMessages(threadId)).find(row => row.role === 'assistant')?.content ?? '' })
    return update(key, changes)
  }
  vi.spyOn(threads, 'update').mockImplementation(watched as unknown as typeof update)
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
    expect((await getThread(threadId))?.serverJob).toBeUndefined()
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
    const job = (await getThread(threadId))!.serverJob!
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
