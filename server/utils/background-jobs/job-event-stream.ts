import type { H3Event } from 'h3'
import type { LoopEvent } from '#shared/loop/loop-event'
import { endingEventFor, isRunEnd, vanishedJobEvent } from './job-ending'
import { isFinishedJob } from './job-retention'
import type { JobEvent, JobStore } from './job-store-types'

/** A comment line now and then, so proxies do not close a stream that waits on a paused job. */
const HEARTBEAT_MS = 15_000

/** One SSE frame: the event id (for Last-Event-ID) and the LoopEvent as JSON. */
export function formatJobEvent(item: JobEvent<LoopEvent>): string {
  return `id: ${item.id}\ndata: ${JSON.stringify(item.event)}\n\n`
}

export interface PipeJobEventsOptions {
  /** Run every `intervalMs` while the stream waits (a job on a user's key checks that its instance is alive). */
  watch?: { intervalMs: number, check: () => Promise<unknown> }
  /**
   * How often the stream checks that the job's record still exists. A record deleted under it (Redis flushed,
   * retention) appends no more events, so without the check the stream would wait for ever.
   * @default 15_000 (with the heartbeat)
   */
  recordCheckMs?: number
}

/**
 * Writes a job's events after `afterId` to the response as server-sent events, backlog first, then live ones,
 * and ends the response after the run's last event (`finish` or `fail`), when the job's record disappears (with a
 * `fail` event the tab shows), or when the browser goes away. Resolves once the response is over, however it ended.
 */
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
  const timers: ReturnType<typeof setInterval>[] = []
  const end = () => {
    if (gone.signal.aborted) return
    gone.abort()
    for (const timer of timers) clearInterval(timer)
    if (!response.writableEnded) response.end()
    resolveDone()
  }
  response.once('close', end)
  // A browser that left while the route was still looking the job up: its 'close' has been and gone.
  if (event.node.req.socket.destroyed) end()

  let lastId = afterId
  /** Ends the stream with `ending` as its last event, unless it has ended already. */
  const endWith = (ending: LoopEvent) => {
    if (gone.signal.aborted) return
    response.write(formatJobEvent({ id: lastId + 1, jobId, event: ending }))
    end()
  }
  const checkRecord = async () => {
    // A store that cannot answer now (Redis unreachable) proves nothing: only a missing record ends the stream.
    const job = await store.getJob(jobId).catch(() => null)
    if (job === undefined) endWith(vanishedJobEvent())
  }
  if (!gone.signal.aborted) {
    timers.push(setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS))
    timers.push(setInterval(() => void checkRecord(), options.recordCheckMs ?? HEARTBEAT_MS))
    const { watch } = options
    if (watch) timers.push(setInterval(() => void watch.check().catch(() => {}), watch.intervalMs))
  }

  const deliver = (item: JobEvent<LoopEvent>) => {
    if (gone.signal.aborted || item.id <= lastId) return
    lastId = item.id
    response.write(formatJobEvent(item))
    if (isRunEnd(item.event)) end()
  }
  await store.subscribe<LoopEvent>(jobId, afterId, deliver, gone.signal)
  const job = await store.getJob(jobId)
  if (!job) endWith(vanishedJobEvent())
  // A job that ended without a last event (its process restarted, or Stop found no runner) gets one, so the tab
  // ends the reply cleanly, keeping what it recorded, instead of reconnecting for ever.
  if (!gone.signal.aborted && job && isFinishedJob(job)) {
    // Its last events may be on their way through the live feed: read them first.
    for (const item of await store.readEvents<LoopEvent>(jobId, lastId)) deliver(item)
  }
  if (!gone.signal.aborted && job && isFinishedJob(job)) {
    const ending = endingEventFor(job)
    if (ending) endWith(ending)
    else end()
  }
  await done
}
