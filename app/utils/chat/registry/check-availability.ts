import type { RegisteredTool, ToolAvailabilityContext } from './tool-registry-types'

/**
 * How long a send waits for one availability check; a slow check must not hold up every message. Checks run side by
 * side, so a send waits this long at most once. It was 200 ms, and a check that reads IndexedDB (search_chat_history
 * counting earlier chats) overran it at the first send of a page still busy loading, on a loaded 2-core machine: the
 * tool was left out of that send for no fault of its own.
 */
export const AVAILABILITY_TIME_LIMIT_MS = 1000

/**
 * Runs a tool's availability check. Resolves to undefined when the tool is offered, else to the reason it is
 * not (its own `unavailableReason`, or why the check failed: thrown, or slower than the time limit).
 * @throws the signal's reason when Stop is pressed while waiting, so the send ends instead of going on
 */
export function checkAvailability(tool: RegisteredTool, context: ToolAvailabilityContext, timeLimitMs = AVAILABILITY_TIME_LIMIT_MS): Promise<string | undefined> {
  const check = tool.available
  if (!check) return Promise.resolve(undefined)
  const { signal } = context
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const onAbort = () => finish(() => reject(signal!.reason))
    const timer = setTimeout(() => finish(() => resolve(`Check took longer than ${timeLimitMs} ms`)), timeLimitMs)
    function finish(settle: () => void) {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      settle()
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    Promise.resolve().then(() => check(context)).then(
      value => finish(() => resolve(value === true ? undefined : (tool.unavailableReason ?? 'Not available right now'))),
      (error: unknown) => finish(() => {
        const message = (error as Error)?.message ?? String(error)
        // the popover shows the reason to the user; the console keeps it for the plugin's author
        console.warn(`[plugboard] availability check of tool "${tool.name}" failed; not offering it: ${message}`)
        resolve(`Check failed: ${message}`)
      }),
    )
  })
}
