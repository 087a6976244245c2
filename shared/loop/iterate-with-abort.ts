/**
 * Iterates `iterable` but stops as soon as `signal` aborts, even when the source is stuck waiting and ignores
 * the signal: Stop must take effect at once. Throws the signal's reason on abort, after closing the source.
 */
export async function* iterateWithAbort<T>(iterable: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  const iterator = iterable[Symbol.asyncIterator]()
  if (!signal) {
    for (;;) {
      const next = await iterator.next()
      if (next.done) return
      yield next.value
    }
  }
  let onAbort = () => {}
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'))
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  aborted.catch(() => {})
  let finished = false
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted])
      if (next.done) {
        finished = true
        return
      }
      yield next.value
    }
  }
  finally {
    signal.removeEventListener('abort', onAbort)
    // Close the source when we leave early; not awaited, since a stuck source may never answer.
    if (!finished) Promise.resolve(iterator.return?.()).catch(() => {})
  }
}
