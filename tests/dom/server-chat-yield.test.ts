import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { LoopRecorder } from '~/db/loop-recorder'
import { createThread } from '~/db/threads'
import { getServerJob, setServerJob } from '~/db/server-jobs'
import { followServerChat } from '~/utils/chat/server-chats/server-chat'
import { BUSY_SLICE_MS } from '~/utils/chat/scheduling/yield-to-page'
import { vanishedJobEvent } from '~~/server/utils/background-jobs/runner/job-ending'
import { useFreshDatabase } from './helpers/fresh-database'

// A chat run on the server reaches the tab as SSE LoopEvents. At loopback speed a whole reply arrives in a few
// network chunks, thousands of events at once: reading and recording them must leave the page turns to render
// and take input, as the tab's own loop does, and still record every event in order, across dropped connections.

useFreshDatabase('server-chat-yield')

const frame = (id: number, event: LoopEvent | string) => `id: ${id}\ndata: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`

/** A response whose body is `chunks`, each one network chunk; `open` leaves the connection hanging after them. */
function eventStream(chunks: string[], options: { open?: boolean } = {}): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      if (!options.open) controller.close()
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } })
}

/** Serves each request from `answers` in turn and keeps the URLs asked for. */
function fakeServer(answers: Array<() => Response>) {
  const urls: string[] = []
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    urls.push(url)
    const answer = answers.shift()
    if (!answer) return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } })
    return answer()
  }))
  return urls
}

/** A recorder that keeps what it was given; each event costs the page 1 ms (the row, the draft's render). */
function keepingRecorder() {
  const recorded: string[] = []
  const recorder = {
    record: async (event: LoopEvent) => {
      recorded.push(event.type === 'text-delta' ? event.text : event.type === 'fail' ? `fail: ${event.error.message}` : event.type)
      vi.advanceTimersByTime(1)
    },
    settled: async () => {},
    start: async () => {},
    currentMessageId: () => undefined,
  } as unknown as LoopRecorder
  return { recorded, recorder }
}

/** The next task, queued now (a frame or input the page has waiting). */
function taskQueuedNow(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}

const words = Array.from({ length: 300 }, (_, index) => `word${index} `)
const reply: LoopEvent[] = [
  { type: 'step-start', step: 1 },
  ...words.map(text => ({ type: 'text-delta' as const, step: 1, text })),
  { type: 'finish', finishReason: 'stop', steps: 1 } as LoopEvent,
]

async function followedThread() {
  const thread = await createThread()
  await setServerJob(thread.id, { id: 'job-1', lastEventId: 0 })
  return thread
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('followServerChat', () => {
  it('lets the page have a turn while it reads and records a reply that arrived in one chunk, and records every event in order', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    fakeServer([() => eventStream([reply.map((event, index) => frame(index + 1, event)).join('')])])
    const thread = await followedThread()
    const { recorded, recorder } = keepingRecorder()
    // The page: a task always waiting (frames, input), noting how far the recording had got each time it ran.
    const pageTurns: number[] = []
    let ended = false
    const page = (async () => {
      while (!ended) {
        await taskQueuedNow()
        pageTurns.push(recorded.length)
      }
    })()

    expect(await followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })).toBe('ended')
    ended = true
    await page
    expect(recorded).toEqual(['step-start', ...words, 'finish'])
    // Between two turns of the page, about one slice of recording (8 ms here), never the whole reply.
    const runs = [...pageTurns, recorded.length].map((count, index, counts) => count - (counts[index - 1] ?? 0))
    expect(Math.max(...runs)).toBeLessThanOrEqual(BUSY_SLICE_MS + 2)
    // The job's last event was recorded: the thread no longer follows it.
    expect(await getServerJob(thread.id)).toBeUndefined()
  })

  it('reads on from the last event it got when the connection drops, without losing or repeating one', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] })
    const frames = reply.map((event, index) => frame(index + 1, event))
    // The first connection ends in the middle of event 101's frame.
    const urls = fakeServer([
      () => eventStream([frames.slice(0, 100).join('') + frames[100]!.slice(0, 12)]),
      () => eventStream([frames.slice(100).join('')]),
    ])
    const thread = await followedThread()
    const { recorded, recorder } = keepingRecorder()
    const following = followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })
    await vi.waitFor(() => expect(recorded).toHaveLength(100))
    await vi.advanceTimersByTimeAsync(3000)
    expect(await following).toBe('ended')
    expect(recorded).toEqual(['step-start', ...words, 'finish'])
    expect(urls).toEqual(['/api/chats/job-1/events?after=0', '/api/chats/job-1/events?after=100'])
  })

  it('ends the reply with a message when the server no longer has the job, keeping what was recorded', async () => {
    fakeServer([() => eventStream([reply.slice(0, 3).map((event, index) => frame(index + 1, event)).join('')]), () => new Response('Not found', { status: 404 })])
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] })
    const thread = await followedThread()
    const { recorded, recorder } = keepingRecorder()
    const following = followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })
    await vi.waitFor(() => expect(recorded).toHaveLength(3))
    await vi.advanceTimersByTimeAsync(3000)
    expect(await following).toBe('gone')
    expect(recorded).toEqual(['step-start', 'word0 ', 'word1 ', 'fail: The server lost this reply before it finished. Press Retry.'])
    expect(await getServerJob(thread.id)).toBeUndefined()
  })

  it('says why when the server refuses the stream for too many of them (429), in the server\'s words', async () => {
    const refusal = 'This browser already has 32 chat streams open on this server, the most it may hold. Close tabs of this app you do not use, or wait for running replies to end.'
    vi.useFakeTimers({ toFake: ['performance'] })
    fakeServer([() => new Response(JSON.stringify({ statusCode: 429, message: refusal }), { status: 429, headers: { 'content-type': 'application/json' } })])
    const thread = await followedThread()
    const { recorded, recorder } = keepingRecorder()
    expect(await followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })).toBe('gone')
    expect(recorded).toEqual([`fail: This chat stopped following its reply: ${refusal} Then press Retry.`])
  })

  it('ends the reply at the fail frame of a stream whose job record was deleted, without reconnecting', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const urls = fakeServer([() => eventStream([frame(1, reply[0]!), frame(2, vanishedJobEvent())])])
    const thread = await followedThread()
    const { recorded, recorder } = keepingRecorder()
    expect(await followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })).toBe('ended')
    expect(recorded).toEqual(['step-start', expect.stringMatching(/^fail: The server no longer has this reply: its record was deleted .*Press Retry\.$/)])
    expect(urls).toHaveLength(1)
    expect(await getServerJob(thread.id)).toBeUndefined()
  })

  it('skips a frame that is not a LoopEvent, and refuses an event that never ends instead of buffering it', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const endless = `id: 4\ndata: ${'x'.repeat(64 * 1024)}`
    fakeServer([() => eventStream([
      frame(1, reply[0]!),
      frame(2, '<html>proxy error</html>'),
      frame(3, reply[1]!),
      // 40 MB of one event's data, in 64 KB chunks, and no end: more than the 32 MB one event may hold.
      endless,
      ...Array.from({ length: 640 }, () => 'x'.repeat(64 * 1024)),
    ], { open: true })])
    const thread = await followedThread()
    const { recorded, recorder } = keepingRecorder()
    expect(await followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })).toBe('gone')
    expect(recorded).toEqual(['step-start', 'word0 ', 'fail: The server sent an event too large to show (over 32 MB); the reply was cut here. Press Retry.'])
  })

  it('does not let a stream that says retry: 0 turn reconnecting into a tight loop of requests', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] })
    const urls = fakeServer(Array.from({ length: 50 }, () => () => eventStream(['retry: 0\n\n'])))
    const thread = await followedThread()
    const { recorder } = keepingRecorder()
    const leave = new AbortController()
    const following = followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: leave.signal })
    await vi.waitFor(() => expect(urls).toHaveLength(1))
    await vi.advanceTimersByTimeAsync(499)
    expect(urls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(urls).toHaveLength(2))
    await vi.advanceTimersByTimeAsync(2_000)
    // At most one request per half second, however the server asks.
    expect(urls.length).toBeLessThanOrEqual(6)
    leave.abort()
    expect(await following).toBe('closed')
  })

  it('stops reading when the tab leaves the chat, and the job goes on', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    fakeServer([() => eventStream([frame(1, reply[0]!)], { open: true })])
    const thread = await followedThread()
    const { recorded, recorder } = keepingRecorder()
    const leave = new AbortController()
    const following = followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: leave.signal })
    // A reload reads on from the event recorded last.
    await vi.waitFor(async () => expect(await getServerJob(thread.id)).toMatchObject({ id: 'job-1', lastEventId: 1, step: 1 }))
    leave.abort()
    expect(await following).toBe('closed')
    expect(recorded).toEqual(['step-start'])
    expect(vi.mocked(fetch).mock.calls[0]![1]!.signal!.aborted).toBe(true)
    expect(await getServerJob(thread.id)).toMatchObject({ id: 'job-1', lastEventId: 1 })
  })
})
