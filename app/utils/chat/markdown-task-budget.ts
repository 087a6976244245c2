import { nextTask } from './yield-to-page'

/**
 * Milliseconds one task may spend from its first markdown block on before further blocks of messages that mount
 * finished wait for the next frames. Opening a chat mounts several turns in one task; parsing and sanitising all
 * their markdown there made it a long task.
 */
export const MOUNT_MARKDOWN_BUDGET_MS = 8

/** A window older than this belongs to an earlier task, even if the reset did not come (a page in the background). */
const STALE_WINDOW_MS = 1000

let taskStartedAt: number | undefined

/**
 * Whether the current task has used its markdown budget: the clock starts at the task's first call and is reset
 * for the next task. `now` is injectable for tests.
 */
export function markdownTaskBudgetSpent(now: () => number = () => performance.now()): boolean {
  const at = now()
  if (taskStartedAt === undefined || at < taskStartedAt || at - taskStartedAt > STALE_WINDOW_MS) {
    const started = taskStartedAt = at
    void nextTask().then(() => {
      if (taskStartedAt === started) taskStartedAt = undefined
    })
  }
  return at - taskStartedAt >= MOUNT_MARKDOWN_BUDGET_MS
}
