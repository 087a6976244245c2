import { throwIfAborted, toAbortError } from './abort-error'

/** A response body as the stream reader accepts it. */
export type ChatStreamBody = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>

function isReadableStream(body: ChatStreamBody): body is ReadableStream<Uint8Array> {
  return typeof (body as ReadableStream<Uint8Array>).getReader === 'function'
}

/**
 * Yields the body's chunks until it ends, stopping with an AbortError as soon as `signal` aborts, even while a read
 * is pending. A ReadableStream is read with getReader() (Safari cannot async-iterate streams) and cancelled when the
 * caller stops early, so the connection is released.
 */
export async function* iterateBody(body: ChatStreamBody, signal?: AbortSignal): AsyncGenerator<Uint8Array | string> {
  throwIfAborted(signal)
  if (isReadableStream(body)) {
    yield* iterateReadableStream(body, signal)
    return
  }
  const iterator = body[Symbol.asyncIterator]()
  let onAbort: (() => void) | undefined
  const aborted = signal
    ? new Promise<never>((_, reject) => {
        onAbort = () => reject(toAbortError(signal.reason))
        signal.addEventListener('abort', onAbort, { once: true })
      })
    : undefined
  aborted?.catch(() => {}) // only observed through Promise.race below
  let finished = false
  try {
    while (true) {
      const result = aborted ? await Promise.race([iterator.next(), aborted]) : await iterator.next()
      if (result.done) {
        finished = true
        return
      }
      yield result.value
    }
  }
  finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort)
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => {})
  }
}

async function* iterateReadableStream(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  // Cancelling settles a pending read(), which is how an abort interrupts a stalled provider.
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {})
  signal?.addEventListener('abort', onAbort, { once: true })
  let finished = false
  try {
    while (true) {
      let result: ReadableStreamReadResult<Uint8Array>
      try {
        result = await reader.read()
      }
      catch (error) {
        throwIfAborted(signal)
        throw error
      }
      throwIfAborted(signal)
      if (result.done) {
        finished = true
        return
      }
      yield result.value
    }
  }
  finally {
    signal?.removeEventListener('abort', onAbort)
    if (!finished) void reader.cancel().catch(() => {})
    else reader.releaseLock()
  }
}
