import { createTaskClock } from '../scheduling/task-clock'
import { nextTask } from '../scheduling/yield-to-page'

/** Milliseconds of turn mounting a task after a frame may do (the queue's own tasks). */
export const TURN_MOUNT_BUDGET_MS = 8
/**
 * Milliseconds of turn mounting the task that scrolls may do before further turns wait for the next frames: that
 * task also runs virtua's update, removes the turns scrolled away and lays the list out again.
 */
export const SCROLL_MOUNT_BUDGET_MS = 4

/** Hands out the time turns may spend mounting, per task. */
export interface TurnMountQueue {
  /**
   * Asked while a turn is set up: true when it may render whole now, false when it should show a stand-in and wait
   * for `defer`. The clock starts at the task's first question; turns queued earlier keep their turn.
   */
  admit: () => boolean
  /** Runs `show` in a later frame, while that frame's budget lasts, in the order asked. Returns: take it off the queue. */
  defer: (show: () => void) => () => void
  /** Turns waiting. */
  readonly waiting: number
  /** Forgets every turn waiting (the list went away). */
  clear: () => void
}

export interface TurnMountQueueOptions {
  /** Mounting time of each of the queue's own tasks. @default TURN_MOUNT_BUDGET_MS */
  budgetMs?: number
  /**
   * Mounting time of any other task (the one that scrolls) before turns are queued, read at each question (0: every
   * turn that may wait does). @default SCROLL_MOUNT_BUDGET_MS
   */
  admitBudgetMs?: number | (() => number)
  /** Whether turns mounting now should be spread at all (the list defers only while the user scrolls). @default always */
  enabled?: () => boolean
  /** Renders what the last `show` changed, so its cost is counted (Vue's `nextTick`). @default a resolved promise */
  flush?: () => Promise<void>
  /** Schedules a drain of the queue. @default a task after the next frame (a timer where there are no frames) */
  schedule?: (run: () => void) => void
  /** @default performance.now */
  now?: () => number
  /** Resolves in the next task (ends the current task's window). @default nextTask */
  taskEnd?: () => Promise<void>
  /** Called when a drain has mounted every turn that waited. */
  onDrained?: () => void
}

/**
 * After the next frame, in a task of its own: the frame that scrolls (the scroll event, virtua's update, layout,
 * paint) stays short, and the turns mounted here are laid out in the frame after.
 */
function defaultSchedule(run: () => void) {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => void nextTask().then(run))
  else setTimeout(run, 16)
}

/**
 * Spreads the mounting of turns over frames. A fast wheel flick up a long chat brings a dozen turns (tool cards,
 * markdown) into view in one scroll event, and mounting them all there made a 50–250 ms task. The task that scrolls
 * may mount turns for `admitBudgetMs`; the others show a stand-in and are mounted after the next frames, `budgetMs`
 * per task, and a turn scrolled past before its turn came is taken off the queue, never mounted.
 */
export function createTurnMountQueue(options: TurnMountQueueOptions = {}): TurnMountQueue {
  const {
    budgetMs = TURN_MOUNT_BUDGET_MS,
    admitBudgetMs = SCROLL_MOUNT_BUDGET_MS,
    enabled = () => true,
    flush = () => Promise.resolve(),
    schedule = defaultSchedule,
    now = () => performance.now(),
    taskEnd = nextTask,
    onDrained,
  } = options
  const queue: Array<{ show: () => void }> = []
  let scheduled = false
  let draining = false

  const elapsedInTask = createTaskClock(taskEnd)
  const admitBudget = typeof admitBudgetMs === 'function' ? admitBudgetMs : () => admitBudgetMs
  const taskBudgetSpent = () => elapsedInTask(now()) >= admitBudget()

  function scheduleDrain() {
    if (scheduled || draining || queue.length === 0) return
    scheduled = true
    schedule(() => {
      scheduled = false
      void drain()
    })
  }

  async function drain() {
    draining = true
    const started = now()
    try {
      do {
        const entry = queue.shift()
        if (!entry) break
        entry.show()
        await flush()
      } while (queue.length > 0 && now() - started < budgetMs)
    }
    finally {
      draining = false
      if (queue.length === 0) onDrained?.()
      scheduleDrain()
    }
  }

  return {
    admit() {
      if (!enabled()) return true
      if (queue.length > 0) return false
      return !taskBudgetSpent()
    },
    defer(show) {
      const entry = { show }
      queue.push(entry)
      scheduleDrain()
      return () => {
        const index = queue.indexOf(entry)
        if (index >= 0) queue.splice(index, 1)
      }
    },
    get waiting() {
      return queue.length
    },
    clear() {
      queue.length = 0
    },
  }
}
