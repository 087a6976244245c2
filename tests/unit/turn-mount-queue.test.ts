// The message list's turn mounting queue: a fast scroll up a long chat mounts a few turns per task, the rest over
// the next frames, and turns scrolled past before their frame are never mounted.
import { describe, expect, it } from 'vitest'
import { createTurnMountQueue } from '~/utils/chat/message-list/turn-mount-queue'

/** A hand-driven clock, frames and task ends. */
function harness(options: { budgetMs?: number, admitBudgetMs?: number | (() => number), enabled?: () => boolean, costPerShowMs?: number, onDrained?: () => void } = {}) {
  let time = 0
  const frames: Array<() => void> = []
  let endTask!: () => void
  const newTask = () => new Promise<void>(resolve => (endTask = resolve))
  const queue = createTurnMountQueue({
    budgetMs: options.budgetMs ?? 8,
    admitBudgetMs: options.admitBudgetMs ?? 8,
    enabled: options.enabled,
    onDrained: options.onDrained,
    now: () => time,
    schedule: run => frames.push(run),
    taskEnd: newTask,
    // Rendering a shown turn costs time on the clock.
    flush: async () => { time += options.costPerShowMs ?? 3 },
  })
  return {
    queue,
    advance: (ms: number) => { time += ms },
    /** Ends the task (its budget window) and lets its promise callbacks run. */
    async nextTask() {
      endTask?.()
      await Promise.resolve()
      await Promise.resolve()
    },
    /** Runs the frame scheduled by the queue, and the renders it awaited. */
    async runFrame() {
      const run = frames.shift()
      expect(run, 'a frame was scheduled').toBeDefined()
      run!()
      for (let tick = 0; tick < 20; tick++) await Promise.resolve()
    },
    framesWaiting: () => frames.length,
  }
}

/** Mounts `count` turns as the list would in one task: each asks, and waits in the queue if refused. */
function mountTurns(h: ReturnType<typeof harness>, count: number, costMs: number, shown: number[], offset = 0) {
  const dequeues: Array<() => void> = []
  for (let index = offset; index < offset + count; index++) {
    if (h.queue.admit()) {
      shown.push(index)
      h.advance(costMs)
    }
    else {
      dequeues[index] = h.queue.defer(() => shown.push(index))
    }
  }
  return dequeues
}

describe('createTurnMountQueue', () => {
  it('mounts turns whole in a task until its budget is spent, then over the next frames within the budget, in order', async () => {
    const h = harness({ costPerShowMs: 3 })
    const shown: number[] = []
    mountTurns(h, 12, 3, shown)
    // 0, 3, 6 ms: three turns fit in 8 ms; the fourth sees 9 ms spent.
    expect(shown).toEqual([0, 1, 2])
    expect(h.queue.waiting).toBe(9)
    await h.nextTask()

    await h.runFrame()
    // Each frame: turns until 8 ms of rendering is used (3 + 3 + 3 ≥ 8 after the third).
    expect(shown).toEqual([0, 1, 2, 3, 4, 5])
    await h.runFrame()
    await h.runFrame()
    expect(shown).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    expect(h.queue.waiting).toBe(0)
    expect(h.framesWaiting()).toBe(0)
  })

  it('never mounts a turn taken off the queue (scrolled past before its frame)', async () => {
    const h = harness()
    const shown: number[] = []
    const dequeues = mountTurns(h, 6, 10, shown)
    expect(shown).toEqual([0])
    for (const index of [1, 2, 3, 4]) dequeues[index]!()
    await h.nextTask()
    await h.runFrame()
    expect(shown).toEqual([0, 5])
    expect(h.framesWaiting()).toBe(0)
  })

  it('gives each new task its own budget, and lets no turn jump the queue', async () => {
    const h = harness()
    const shown: number[] = []
    mountTurns(h, 3, 10, shown)
    expect(shown).toEqual([0])
    await h.nextTask()
    // A new task (the next scroll event) while two turns still wait: the new turns queue behind them.
    mountTurns(h, 2, 1, shown, 3)
    expect(shown).toEqual([0])
    await h.runFrame()
    await h.runFrame()
    expect(shown).toEqual([0, 1, 2, 3, 4])
    await h.nextTask()
    // Queue empty and a fresh task: mounted at once again.
    mountTurns(h, 1, 1, shown, 5)
    expect(shown).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('mounts everything at once when it is not enabled (the list is not being scrolled)', () => {
    const h = harness({ enabled: () => false })
    const shown: number[] = []
    mountTurns(h, 10, 20, shown)
    expect(shown).toHaveLength(10)
    expect(h.framesWaiting()).toBe(0)
  })

  it('lets the task that scrolls mount for less time than the queue\'s own tasks', async () => {
    const h = harness({ budgetMs: 8, admitBudgetMs: 4, costPerShowMs: 3 })
    const shown: number[] = []
    mountTurns(h, 6, 3, shown)
    // 0 and 3 ms: two turns; at 6 ms the scrolling task's 4 ms are spent.
    expect(shown).toEqual([0, 1])
    await h.nextTask()
    await h.runFrame()
    expect(shown).toEqual([0, 1, 2, 3, 4])
  })

  it('queues every turn asked while the admit budget reads 0 (a chat opening), and says when they have all mounted', async () => {
    let opening = true
    let drained = 0
    const h = harness({ admitBudgetMs: () => (opening ? 0 : 8), onDrained: () => { drained++; opening = false } })
    const shown: number[] = []
    mountTurns(h, 4, 3, shown)
    expect(shown).toEqual([])
    expect(h.queue.waiting).toBe(4)
    await h.nextTask()
    await h.runFrame()
    expect(shown).toEqual([0, 1, 2])
    expect(drained).toBe(0)
    await h.runFrame()
    expect(shown).toEqual([0, 1, 2, 3])
    expect(drained).toBe(1)
    // opened: the next task mounts within its budget again
    await h.nextTask()
    mountTurns(h, 2, 3, shown, 4)
    expect(shown).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('forgets what waits when cleared', async () => {
    const h = harness()
    const shown: number[] = []
    mountTurns(h, 4, 10, shown)
    h.queue.clear()
    await h.nextTask()
    await h.runFrame()
    expect(shown).toEqual([0])
  })
})
