/** Milliseconds of back-to-back work after which the stream's consumer lets the page render and handle input. */
export const BUSY_SLICE_MS = 8

let sliceStarted: number | undefined

/** The next task (not a microtask): `scheduler.yield()` where the browser has it, else a message to ourselves. */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        channel.port1.close()
        resolve()
      }
      channel.port2.postMessage(null)
    })
  }
  return new Promise(resolve => setTimeout(resolve, 0))
}

/**
 * Awaited once per event of a streamed reply. A reply that arrives at loopback speed is thousands of events in one
 * network chunk, each handled in a microtask: without a break they run as one long task that blocks frames and
 * input. After BUSY_SLICE_MS of them in a row this waits for the next task, so the page renders in between.
 */
export async function yieldToPageWhenBusy(): Promise<void> {
  const now = performance.now()
  sliceStarted ??= now
  if (now - sliceStarted < BUSY_SLICE_MS) return
  await nextTask()
  sliceStarted = undefined
}
