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
    if (watcher) clearInterval(watcher)
    if (!response.writableEnded) response.end()
    resolveDone()
  }
  response.once('close', end)
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS)
  const { watch } = options
  const watcher = watch ? setInterval(() => void watch.check().catch(() => {}), watch.intervalMs) : undefined

  let lastId = afterId
  const deliver = (item: JobEvent<LoopEvent>) => {
    if (gone.signal.aborted || item.id <= lastId) return
    lastId = item.id
    response.write(formatJobEvent(item))
    if (isRunEnd(item.event)) end()
  }
  await store.subscribe<LoopEvent>(jobId, afterId, deliver, gone.signal)
  // A job that ended without a last event (its process restarted, or Stop found no runner) gets one, so the tab
  // ends the reply cleanly, keeping what it recorded, instead of reconnecting for ever.
  const job = await store.getJob(jobId)
  if (!gone.signal.aborted && job && isFinishedJob(job)) {
    // Its last events may be on their way through the live feed: read them first.
    for (const item of await store.readEvents<LoopEvent>(jobId, lastId)) deliver(item)
  }
  if (!gone.signal.aborted && job && isFinishedJob(job)) {
    const ending = endingEventFor(job)
    if (ending) response.write(formatJobEvent({ id: lastId + 1, jobId, event: ending }))
    end()
  }
  await done
}
