import { nextTask } from './yield-to-page'

/** A window older than this belongs to an earlier task, even if the reset did not come (a page in the background). */
const STALE_WINDOW_MS = 1000

/**
 * A clock of the current task, for work that spends a budget per task: `elapsed(at)` is the time since the task's
 * first call (0 at that call), and the clock starts again in the next task (when `taskEnd` resolves).
 */
export function createTaskClock(taskEnd: () => Promise<void> = nextTask): (at: number) => number {
  let startedAt: number | undefined
  return (at) => {
    if (startedAt === undefined || at < startedAt || at - startedAt > STALE_WINDOW_MS) {
      const started = startedAt = at
      void taskEnd().then(() => {
        if (startedAt === started) startedAt = undefined
      })
    }
    return at - startedAt
  }
}
