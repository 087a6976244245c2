import type { H3Event } from 'h3'
import { createOpenSlots } from '../../http/open-slots'
import { requestClientBudgetKey } from '../../security/client-address'
import { userError } from '../../http/user-error'

/**
 * Event streams one session may hold open on an instance (`NUXT_MAX_EVENT_STREAMS_PER_SESSION`). A tab holds one
 * per background chat it follows, so a few tabs with several running chats stay far below it.
 */
export const DEFAULT_MAX_EVENT_STREAMS_PER_SESSION = 32

/**
 * An address may hold this many sessions' worth: several people behind one NAT each have their own session, while
 * one client minting sessions (each with a chat) cannot hold sockets without bound.
 */
const SESSIONS_PER_ADDRESS = 4

const streams = createOpenSlots()

/** The configured cap; nonsense falls back to the default, never to "unlimited". */
export function maxEventStreamsPerSession(configured: unknown): number {
  const value = Number(configured)
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_MAX_EVENT_STREAMS_PER_SESSION
}

/** Streams open now for a session on this instance. */
export function openEventStreams(sessionId: string): number {
  return streams.count(`session:${sessionId}`)
}

/**
 * Takes one event-stream slot for the session and for the client's address, and returns its release (call it when
 * the stream ends, however it ends). Throws 429 with the reason when either is full.
 */
export function takeEventStreamSlot(event: H3Event, sessionId: string): () => void {
  const max = maxEventStreamsPerSession(useRuntimeConfig(event).maxEventStreamsPerSession)
  const releaseSession = streams.take(`session:${sessionId}`, max)
  if (!releaseSession) {
    throw userError(429, 'Too Many Requests', 'server.job.browserStreams', { max })
  }
  const releaseAddress = streams.take(`address:${requestClientBudgetKey(event)}`, max * SESSIONS_PER_ADDRESS)
  if (!releaseAddress) {
    releaseSession()
    throw userError(429, 'Too Many Requests', 'server.job.addressStreams', { max: max * SESSIONS_PER_ADDRESS })
  }
  return () => {
    releaseSession()
    releaseAddress()
  }
}
