/** The longest delay setTimeout honours: beyond 2^31-1 ms it fires after 1 ms, which would time out every call. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1

/**
 * A timeout setTimeout can honour. A positive number is used as it is, capped at MAX_TIMEOUT_MS (so Infinity
 * means "as long as a timer can wait"); anything else (NaN, 0, negative, not a number) falls back to `fallbackMs`.
 * 0 is not "no timeout": it would time out every call before the handler ran.
 */
export function resolveTimeoutMs(value: unknown, fallbackMs: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) return fallbackMs
  return Math.min(value, MAX_TIMEOUT_MS)
}
