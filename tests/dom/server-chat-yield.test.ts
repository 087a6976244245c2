import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { LoopRecorder } from '~/db/loop-recorder'
import { createThread, getThread } from '~/db/threads'
import { followServerChat, setServerJob } from '~/utils/chat/server-chat'
import { BUSY_SLICE_MS } from '~/utils/chat/yield-to-page'
import { useFreshDatabase } from './helpers/fresh-database'

// A chat run on the server reaches the tab as SSE LoopEvents. At loopback speed a whole reply arrives in a few
// network chunks, thousands of events at once: recording them must leave the page turns to render and take input,
// as the tab's own loop does, and still record every event in order.

useFreshDatabase('server-chat-yield')

/** EventSource as the browser dispatches it: every event of a network chunk, back to back in one task. */
class ChunkedEventSource {
  static current: ChunkedEventSource | undefined
  static readonly CLOSED = 2
  readyState = 1
  onmessage: ((message: { data: string, lastEventId: string }) => void) | null = null
  onerror: (() => void) | null = null
  constructor(readonly url: string) {
    ChunkedEventSource.current = this
  }

  deliver(events: LoopEvent[], firstId: number) {
    events.forEach((event, index) => this.onmessage?.({ data: JSON.stringify(event), lastEventId: String(firstId + index) }))
  }

  close() {
    this.readyState = ChunkedEventSource.CLOSED
  }
}

/** The next task, queued now (a timer or input the page has waiting). */
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

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('followServerChat', () => {
  it('lets the page have a turn while it records a reply that arrived all at once, and records every event in order', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    vi.stubGlobal('EventSource', ChunkedEventSource)
    const thread = await createThread()
    await setServerJob(thread.id, { id: 'job-1', lastEventId: 0 })
    const recorded: string[] = []
    // Each event costs the page 1 ms of work (the recorder, the draft's render).
    const recorder = {
      record: async (event: LoopEvent) => {
        recorded.push(event.type === 'text-delta' ? event.text : event.type)
        vi.advanceTimersByTime(1)
      },
      settled: async () => {},
      start: async () => {},
      currentMessageId: () => undefined,
    } as unknown as LoopRecorder
    const following = followServerChat({ threadId: thread.id, jobId: 'job-1', afterId: 0, recorder, signal: new AbortController().signal })

    const words = Array.from({ length: 300 }, (_, index) => `word${index} `)
    const events: LoopEvent[] = [
      { type: 'step-start', step: 1 },
      ...words.map(text => ({ type: 'text-delta' as const, text })),
      { type: 'finish', finishReason: 'stop', steps: 1 } as LoopEvent,
    ]
    // The page: a task always waiting (frames, input), noting how far the recording had got each time it ran.
    const pageTurns: number[] = []
    let ended = false
    const page = (async () => {
      while (!ended) {
        await taskQueuedNow()
        pageTurns.push(recorded.length)
      }
    })()
    ChunkedEventSource.current!.deliver(events, 1)

    expect(await following).toBe('ended')
    ended = true
    await page
    expect(recorded).toEqual(['step-start', ...words, 'finish'])
    // Between two turns of the page, about one slice of recording (8 ms here), never the whole reply.
    const runs = [...pageTurns, recorded.length].map((count, index, counts) => count - (counts[index - 1] ?? 0))
    expect(Math.max(...runs)).toBeLessThanOrEqual(BUSY_SLICE_MS + 2)
    // The job's last event was recorded: the thread no longer follows it.
    expect((await getThread(thread.id))?.serverJob).toBeUndefined()
    expect(ChunkedEventSource.current!.readyState).toBe(ChunkedEventSource.CLOSED)
  })
})
