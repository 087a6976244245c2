/**
 * How long a background chat waits for a person (an approval, or a tab to run a browser-only tool) when
 * `NUXT_JOB_WAIT_TIMEOUT_MS` is not set. Past it the call ends without an answer (an approval: status 'denied' with
 * error kind 'no-answer'; a browser tool: status 'error', kind 'timeout') and the chat goes on. A waiting chat holds
 * no runner slot (job-slots.ts), but it keeps its messages in memory and a place in its session's caps.
 */
export const DEFAULT_JOB_WAIT_TIMEOUT_MS = 10 * 60_000

/** The configured wait limit in ms; nonsense (unset, 0, negative, NaN) gives the default. */
export function resolveJobWaitTimeoutMs(configured: unknown): number {
  const value = Math.floor(Number(configured))
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_JOB_WAIT_TIMEOUT_MS
}
