/**
 * Abort handling shared by the stream reader and the model: an abort must reach the caller as a DOMException named
 * 'AbortError' (what `fetch` throws), never as a ProviderError, so the UI can keep the partial reply quietly.
 */

/** True for any error named 'AbortError' (DOMException from fetch/AbortSignal, or a look-alike from a polyfill). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError'
}

/** The signal's reason when it already is an AbortError, else a fresh `DOMException('…', 'AbortError')`. */
export function toAbortError(reason?: unknown): Error {
  if (isAbortError(reason) && reason instanceof Error) return reason
  return new DOMException('The operation was aborted.', 'AbortError')
}

/** Throws an AbortError when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal.reason)
}
