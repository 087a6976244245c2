import type { H3Event } from 'h3'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { JobEvent, JobStore } from './job-store-types'

/** A comment line now and then, so proxies do not close a stream that waits on a paused job. */
const HEARTBEAT_MS = 15_000

const ENDED: ReadonlySet<string> = new Set(['done', 'failed', 'stopped', 'interrupted'])

/** One SSE frame: the event id (for Last-Event-ID) and the LoopEvent as JSON. */
export function formatJobEvent(item: JobEvent<LoopEvent>): string {
  return `id: ${item.id}\ndata: ${JSON.stringify(item.event)}\n\n`
}

/**
 * Writes a job's events after `afterId` to the response as server-sent events, backlog first, then live ones,
 * and ends the response after the run's last event (`finish` or `fail`) or when the browser goes away.
 */
export async function pipeJobEvents(event: H3Event, store: JobStore, jobId: string, afterId: number): Promise<void> {
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
    if (!response.writableEnded) response.end()
    resolveDone()
  }
  response.once('close', end)
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS)

  await store.subscribe<LoopEvent>(jobId, afterId, (item) => {
    if (gone.signal.aborted) return
    response.write(formatJobEvent(item))
    if (item.event.type === 'finish' || item.event.type === 'fail') end()
  }, gone.signal)
  // A job that ended without a last event (its process went away) has nothing more to send.
  const job = await store.getJob(jobId)
  if (!gone.signal.aborted && job && ENDED.has(job.status) && (await store.readEvents(jobId, afterId, 1)).length === 0) end()
  await done
}
