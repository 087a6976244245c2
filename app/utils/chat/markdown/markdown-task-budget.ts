import { createTaskClock } from '../scheduling/task-clock'

/**
 * Milliseconds one task may spend from its first markdown block on before further blocks of messages that mount
 * finished wait for the next frames. Opening a chat mounts several turns in one task; parsing and sanitising all
 * their markdown there made it a long task.
 */
export const MOUNT_MARKDOWN_BUDGET_MS = 8

const elapsedInTask = createTaskClock()

/**
 * Whether the current task has used its markdown budget: the clock starts at the task's first call and is reset
 * for the next task. `now` is injectable for tests.
 */
export function markdownTaskBudgetSpent(now: () => number = () => performance.now()): boolean {
  return elapsedInTask(now()) >= MOUNT_MARKDOWN_BUDGET_MS
}
