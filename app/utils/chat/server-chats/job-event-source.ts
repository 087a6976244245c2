import { createParser } from 'eventsource-parser'
import { safeJsonParse } from '#shared/tools/text-tool-calls/safe-json'
import { yieldToPageWhenBusy } from '../scheduling/yield-to-page'
import { codedTextOfBody, uncodedText } from '#shared/errors/coded-text'
import type { CodedText } from '#shared/errors/coded-text'

/** One server-sent event of a job's stream: its id and its data, unparsed. */
export interface JobEventMessage {
  id: number
  data: string
}

/** Why the stream ended for good (no reconnect). */
export type JobEventSourceEnd =
  /**
   * The server answered with an error status or no event stream (the job is gone, or not this session's, or too
   * many streams or requests: 429), with the `message` of its JSON error body when it had one (and its code, `text`).
   */
  | { reason: 'gone', status: number, message?: string, text?: CodedText }
  /** One event was larger than `maxEventChars`: reading on would hold an unbounded buffer. */
  | { reason: 'too-large' }

export interface JobEventSourceOptions {
  /** The stream's address, asked from after this event id (the server reads `?after=` and `Last-Event-ID`). */
  url: (afterId: number) => string
  afterId: number
  /** Each event in order, as soon as its chunk is read. Returning true says it was the last: the stream closes. */
  onMessage: (message: JobEventMessage) => boolean | void
  onEnd: (end: JobEventSourceEnd) => void
  /** How long to wait before reconnecting after a dropped connection (the server's `retry:` overrides it). @default 3000 */
  reconnectDelayMs?: number
  /** Largest event accepted, in characters. @default 32 MiB */
  maxEventChars?: number
}

/** Characters handed to the parser at a time, so one large network chunk is parsed over several tasks. */
const FEED_SLICE_CHARS = 16_384

/**
 * The job's LoopEvents over `fetch`, read as EventSource would (ids, reconnect with the last id after a dropped
 * connection, an error status ends it), but parsed in the page's own code: EventSource dispatches every event of
 * a network chunk in one task, and a reply streamed at loopback speed is thousands of events in a chunk, a long
 * task of the browser's own (hundreds of ms) that no handler can break up. Here the parser yields to the page every
 * 8 ms. Returns `close()`, which ends the stream without `onEnd`.
 */
export function openJobEventSource(options: JobEventSourceOptions): { close: () => void } {
  const { reconnectDelayMs = 3000, maxEventChars = 32 * 1024 * 1024 } = options
  const controller = new AbortController()
  let lastId = options.afterId
  let retryMs = reconnectDelayMs
  let ended = false
  const end = (how: JobEventSourceEnd) => {
    if (ended) return
    ended = true
    controller.abort()
    options.onEnd(how)
  }

  const parser = createParser({
    onEvent: (message) => {
      const id = Number(message.id)
      if (Number.isSafeInteger(id) && id > 0) lastId = Math.max(lastId, id)
      if (ended) return
      if (options.onMessage({ id: lastId, data: message.data }) === true) close()
    },
    // Bounded: a `retry: 0` must not turn a dropped connection into a tight loop of requests.
    onRetry: (ms) => {
      retryMs = Math.min(60_000, Math.max(500, ms))
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') end({ reason: 'too-large' })
    },
    maxBufferSize: maxEventChars,
  })

  async function readOnce(): Promise<void> {
    const response = await fetch(options.url(lastId), {
      headers: { 'accept': 'text/event-stream', ...(lastId > 0 ? { 'last-event-id': String(lastId) } : {}) },
      cache: 'no-store',
      signal: controller.signal,
    })
    if (!response.ok || !response.body || !/^text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
      const text = response.ok ? undefined : await errorText(response)
      await response.body?.cancel().catch(() => {})
      return end({ reason: 'gone', status: response.status, ...(text && { message: text.message, text }) })
    }
    parser.reset()
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done || ended) return
      for (let start = 0; start < value.length && !ended; start += FEED_SLICE_CHARS) {
        parser.feed(value.slice(start, start + FEED_SLICE_CHARS))
        await yieldToPageWhenBusy()
      }
    }
  }

  function close() {
    ended = true
    controller.abort()
  }

  void (async () => {
    while (!ended) {
      // A dropped connection (or a stream that ended without its run's last event) reads on from the last id.
      await readOnce().catch(() => {})
      if (ended) return
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryMs)
        controller.signal.addEventListener('abort', () => {
          clearTimeout(timer)
          resolve()
        }, { once: true })
      })
    }
  })()

  return { close }
}

/** Characters of an error body read for its message: the server's own are a few hundred. */
const ERROR_BODY_CHARS = 4096

/** The `message` of a JSON error body (`{ statusCode, message, data }`, as the server answers) with its code, read up to 4 KB. */
async function errorText(response: Response): Promise<CodedText | undefined> {
  if (!response.body || !/json/i.test(response.headers.get('content-type') ?? '')) return undefined
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  try {
    while (text.length < ERROR_BODY_CHARS) {
      const { done, value } = await reader.read()
      if (done) break
      text += value
    }
  }
  catch {
    return undefined
  }
  finally {
    void reader.cancel().catch(() => {})
  }
  const parsed = safeJsonParse(text)
  const message = parsed.ok && parsed.value && typeof parsed.value === 'object' ? (parsed.value as { message?: unknown }).message : undefined
  if (typeof message !== 'string' || !message.trim()) return undefined
  const english = message.trim().slice(0, 500)
  const coded = parsed.ok ? codedTextOfBody(parsed.value) : undefined
  return coded ? { ...coded, message: english } : uncodedText(english)
}
