import type { H3Event } from 'h3'
import type { LoopEvent } from '#shared/loop/loop-event'
import { endingEventFor, isRunEnd } from './job-ending'
import { isFinishedJob } from './job-retention'
import type { JobEvent, JobStore } from './job-store-types'

/** A comment line now and then, so proxies do not close a stream that waits on a paused job. */
const HEARTBEAT_MS = 15_000


/** One SSE frame: the event id (for Last-Event-ID) and the LoopEvent as JSON. */
export function formatJobEvent(item: JobEvent<LoopEvent>): string {
  return `id: ${item.id}\ndata: ${JSON.stringify(item.event)}\n\n`
}

/**
 * Writes a job's events after `afterId` to the response as server-sent events, backlog first, then live ones,
 * and ends the response after the run's last event (`finish` or `fail`) or when the browser goes away.
 */
export interface PipeJobEventsOptions {
  /** Run every `intervalMs` while the stream waits (a job on a user's key checks that its instance is alive). */
  watch?: { intervalMs: number, check: () => Promise<unknown> }
  /**
   * After this long without an event, the stream reads the store itself (what came after its last id, and whether
   * the job ended): the live feed is Redis pub/sub, which drops what it could not push, and without this a stream
   * whose publications were lost waited for ever on a job that had ended. @default 10000
   */
  backstopMs?: number
}

export async function pipeJobEvents(event: H3Event, store: JobStore, jobId: string, afterId: number, options: PipeJobEventsOptions = {}): Promise<void> {
  const response = event.node.res
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  })
  response.flushHeaders()
  const gone = new AbortController()
  let resolveDone!: () => void
  const done = new Promise<void>(resolve => (resolveDone = resolve))
  const end = () => {
    if (gone.signal.aborted) return
    gone.abort()
    clearInterval(heartbeat)
    clearInterval(backstop)
    if (watcher) clearInterval(watcher)
    if (!response.writableEnded) response.end()
    resolveDone()
  }
  response.once('close', end)
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS)
  const { watch, backstopMs = 10_000 } = options
  const watcher = watch ? setInterval(() => void watch.check().catch(() => {}), watch.intervalMs) : undefined

  let lastId = afterId
  let deliveredSinceBackstop = false
  const deliver = (item: JobEvent<LoopEvent>) => {
    if (gone.signal.aborted || item.id <= lastId) return
    lastId = item.id
    deliveredSinceBackstop = true
    response.write(formatJobEvent(item))
    if (isRunEnd(item.event)) end()
  }
  // A job that ended without a last event (its process restarted, or Stop found no runner) gets one, so the tab
  // ends the reply cleanly, keeping what it recorded, instead of reconnecting for ever.
  const endIfFinished = async (readFirst: boolean) => {
    if (readFirst) for (const item of await store.readEvents<LoopEvent>(jobId, lastId)) deliver(item)
    const job = await store.getJob(jobId)
    if (gone.signal.aborted || !job || !isFinishedJob(job)) return
    // Its last events may be on their way through the live feed: read them first.
    for (const item of await store.readEvents<LoopEvent>(jobId, lastId)) deliver(item)
    if (gone.signal.aborted) return
    const ending = endingEventFor(job)
    if (ending) response.write(formatJobEvent({ id: lastId + 1, jobId, event: ending }))
    end()
  }
  // A store that fails after the headers went out ends the response: the browser reconnects with Last-Event-ID
  // (h3 cannot send an error once the headers are sent, and the keep-alives would hold the stream open for ever).
  const failed = (error: unknown) => {
    if (gone.signal.aborted) return
    console.error('[job-store]', new Error(`The event stream of job ${jobId} failed; the browser will reconnect.`, { cause: error }))
    end()
  }
  const backstop = setInterval(() => {
    if (deliveredSinceBackstop) {
      deliveredSinceBackstop = false
      return
    }
    endIfFinished(true).catch(failed)
  }, backstopMs)
  try {
    await store.subscribe<LoopEvent>(jobId, afterId, deliver, gone.signal)
    await endIfFinished(false)
  }
  catch (error) {
    failed(error)
  }
  await done
}
