import type { H3Event } from 'h3'
import type { LoopEvent } from '#shared/loop/loop-event'
import { endingEventFor, isRunEnd, vanishedJobEvent } from '../runner/job-ending'
import { isFinishedJob } from '../store/job-retention'
import type { JobEvent, JobStore } from '../store/job-store-types'
import { holdStream } from '../../http/held-streams'

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
   * After this long without an event, the stream reads the store itself: what came after its last id, whether the
   * job ended, and whether its record still exists. The live feed is Redis pub/sub, which drops what it could not
   * push (without this a stream whose publications were lost waited for ever on a job that had ended), and a record
   * deleted under the stream (Redis flushed, retention) appends no more events. @default 10000
   */
  backstopMs?: number
}

/**
 * Writes a job's events after `afterId` to the response as server-sent events, backlog first, then live ones,
 * and ends the response after the run's last event (`finish` or `fail`), when the job's record disappears (with a
 * `fail` event the tab shows), when the store fails (the browser reconnects) or when the browser goes away.
 * Resolves once the response is over, however it ended.
 */
export async function pipeJobEvents(event: H3Event, store: JobStore, jobId: string, afterId: number, options: PipeJobEventsOptions = {}): Promise<void> {
  const response = event.node.res
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  })
  response.flushHeaders()
  const unhold = holdStream(response)
  const gone = new AbortController()
  let resolveDone!: () => void
  const done = new Promise<void>(resolve => (resolveDone = resolve))
  const timers: ReturnType<typeof setInterval>[] = []
  const end = () => {
    if (gone.signal.aborted) return
    gone.abort()
    unhold()
    for (const timer of timers) clearInterval(timer)
    if (!response.writableEnded) response.end()
    resolveDone()
  }
  response.once('close', end)
  // A browser that left while the route was still looking the job up: its 'close' has been and gone.
  if (event.node.req.socket.destroyed) end()

  let lastId = afterId
  let deliveredSinceBackstop = false
  /** Ends the stream with `ending` as its last event, unless it has ended already. */
  const endWith = (ending: LoopEvent) => {
    if (gone.signal.aborted) return
    response.write(formatJobEvent({ id: lastId + 1, jobId, event: ending }))
    end()
  }
  const deliver = (item: JobEvent<LoopEvent>) => {
    if (gone.signal.aborted || item.id <= lastId) return
    lastId = item.id
    deliveredSinceBackstop = true
    response.write(formatJobEvent(item))
    if (isRunEnd(item.event)) end()
  }
  /**
   * Ends the stream when the job is over: its record gone (a `fail` the tab shows), or the job ended, with its last
   * events first (they may be on their way through the live feed) and an ending event when it ended without one
   * (its process restarted, or Stop found no runner), so the tab ends the reply cleanly instead of reconnecting.
   */
  const endIfOver = async (readFirst: boolean) => {
    if (readFirst) for (const item of await store.readEvents<LoopEvent>(jobId, lastId)) deliver(item)
    const job = await store.getJob(jobId)
    if (gone.signal.aborted) return
    if (!job) return endWith(vanishedJobEvent())
    if (!isFinishedJob(job)) return
    for (const item of await store.readEvents<LoopEvent>(jobId, lastId)) deliver(item)
    if (gone.signal.aborted) return
    const ending = endingEventFor(job)
    if (ending) endWith(ending)
    else end()
  }
  // A store that fails after the headers went out ends the response: the browser reconnects with Last-Event-ID
  // (h3 cannot send an error once the headers are sent, and the keep-alives would hold the stream open for ever).
  const failed = (error: unknown) => {
    if (gone.signal.aborted) return
    console.error('[job-store]', new Error(`The event stream of job ${jobId} failed; the browser will reconnect.`, { cause: error }))
    end()
  }
  if (!gone.signal.aborted) {
    timers.push(setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS))
    timers.push(setInterval(() => {
      if (deliveredSinceBackstop) {
        deliveredSinceBackstop = false
        return
      }
      endIfOver(true).catch(failed)
    }, options.backstopMs ?? 10_000))
    const { watch } = options
    if (watch) timers.push(setInterval(() => void watch.check().catch(() => {}), watch.intervalMs))
  }
  try {
    await store.subscribe<LoopEvent>(jobId, afterId, deliver, gone.signal)
    await endIfOver(false)
  }
  catch (error) {
    failed(error)
  }
  await done
}
