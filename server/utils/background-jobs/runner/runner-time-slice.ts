/** Options of a time slice. */
export interface RunnerTimeSliceOptions {
  /**
   * Runner work allowed in one turn of the event loop, in ms, before the rest waits for the next turn.
   * @default 4
   */
  budgetMs?: number
  /** The clock, in ms. @default performance.now */
  now?: () => number
}

/**
 * Background chats share their instance's event loop with the HTTP/SSE serving and the pub/sub that delivers job
 * events. Hundreds of chats whose store writes (or model chunks) resolve in one batch would all go on in the same
 * macrotask, and every stream reader of the instance would wait for the lot: this is what made event latency
 * follow the number of chats an instance ran. A runner awaits `yieldToServing()` before each event it records: while
 * the current turn has spent less than `budgetMs` on runner work it goes on at once; past that, it waits for the next
 * turn of the loop (setImmediate), after the I/O that arrived meanwhile (readers' events, requests) was handled.
 */
export function createRunnerTimeSlice(options: RunnerTimeSliceOptions = {}): () => Promise<void> {
  const budgetMs = options.budgetMs ?? 4
  const clock = options.now ?? (() => performance.now())
  let sliceStartedAt: number | undefined
  const nextTurn = () => new Promise<void>(resolve => setImmediate(resolve))
  return async function yieldToServing(): Promise<void> {
    for (;;) {
      const now = clock()
      if (sliceStartedAt === undefined) {
        // The first runner of this turn opens a slice; it closes on the loop's next check phase.
        sliceStartedAt = now
        setImmediate(() => { sliceStartedAt = undefined })
        return
      }
      if (now - sliceStartedAt < budgetMs) return
      await nextTurn()
    }
  }
}

/** The instance's one slice, shared by every chat it runs (a per-chat slice would not bound the turn). */
export const yieldToServing = createRunnerTimeSlice()
