import type { H3Event } from 'h3'
import { holdStream } from '../http/held-streams'
import { createOpenSlots } from '../http/open-slots'
import { SyncListenersFullError } from './sync-notifier'
import type { SyncNotifier } from './sync-notifier'
import { userError } from '../http/user-error'

/** Open event streams per owner: a handful of devices and tabs, not an unbounded number of sockets. */
export const MAX_SYNC_STREAMS_PER_OWNER = 16
/** A comment line now and then, so proxies keep an idle stream open. */
const HEARTBEAT_MS = 15_000
/** Bytes a stream may hold unsent: past this the device is not reading (a frozen tab, a dead link) and is dropped. */
const MAX_UNSENT_BYTES = 64 * 1024

const slots = createOpenSlots()

/** Holds the response open as an event stream of the owner's change notifications until the browser leaves. */
export async function pipeSyncEvents(event: H3Event, ownerId: string, notifier: SyncNotifier): Promise<void> {
  const release = slots.take(ownerId, MAX_SYNC_STREAMS_PER_OWNER)
  if (!release) throw userError(429, 'Too Many Requests', 'server.sync.tooManyStreams', { max: MAX_SYNC_STREAMS_PER_OWNER })
  const response = event.node.res
  const unhold = holdStream(response)
  let stop: (() => void) | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  try {
    await new Promise<void>((resolve) => {
      response.once('close', resolve)
      notifier.subscribe(ownerId, (cursor) => {
        if (response.writableEnded || response.destroyed) return false
        if (response.writableLength > MAX_UNSENT_BYTES) {
          // Closing makes the device reconnect (and pull) once it reads again; nothing it needs is in the buffer.
          response.destroy()
          return false
        }
        response.write(`data: ${JSON.stringify({ cursor })}\n\n`)
        return true
      }).then((unsubscribe) => {
        stop = unsubscribe
        if (response.destroyed) return resolve()
        response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' })
        // The first event says the stream is live: the device pulls once, so nothing between its last pull and now is missed.
        response.write('data: {"ready":true}\n\n')
        heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS)
      }, (error: Error) => {
        if (error instanceof SyncListenersFullError) {
          response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' })
          response.end(JSON.stringify({ statusCode: 503, message: error.text.message, data: { code: error.text.code, params: error.text.params } }))
        }
        else {
          console.error(`[sync] could not listen for changes: ${error.message}`)
          response.destroy()
        }
        resolve()
      })
    })
  }
  finally {
    clearInterval(heartbeat)
    stop?.()
    release()
    unhold()
    if (!response.writableEnded) response.end()
  }
}
