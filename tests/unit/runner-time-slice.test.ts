import { describe, expect, it } from 'vitest'
import { createRunnerTimeSlice } from '~~/server/utils/background-jobs/runner/runner-time-slice'

// The clock is the test's: each runner step "costs" 1 ms of it, so what runs in which turn does not depend on speed.
function runners(slice: () => Promise<void>, clock: { now: number }, order: string[], names: string[], steps: number) {
  return Promise.all(names.map(async (name) => {
    for (let step = 0; step < steps; step++) {
      await slice()
      order.push(`${name}${step}`)
      clock.now += 1
    }
  }))
}

describe('runners sharing the event loop with the instance\'s readers', () => {
  it('let work that waited (a reader\'s event) in once a turn has spent its budget, and all of it still runs', async () => {
    const clock = { now: 0 }
    const slice = createRunnerTimeSlice({ budgetMs: 4, now: () => clock.now })
    const order: string[] = []
    setImmediate(() => order.push('reader'))
    await runners(slice, clock, order, ['a', 'b', 'c'], 3)

    // The reader runs once the budget is spent: after some runner steps, before the rest (a step that passed the
    // gate within budget finishes in its turn: at most one per runner past the 4 ms).
    const reader = order.indexOf('reader')
    expect(reader).toBeGreaterThanOrEqual(4)
    expect(reader).toBeLessThanOrEqual(4 + 3)
    expect(reader).toBeLessThan(order.length - 1)
    expect(order.filter(item => item !== 'reader').sort()).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'c0', 'c1', 'c2'])
  })

  it('never holds back a runner while the turn is within budget', async () => {
    const clock = { now: 0 }
    const slice = createRunnerTimeSlice({ budgetMs: 100, now: () => clock.now })
    const order: string[] = []
    setImmediate(() => order.push('reader'))
    await runners(slice, clock, order, ['a', 'b'], 3)
    order.push('end of turn')

    expect(order.at(-1)).toBe('end of turn')
    expect(order).not.toContain('reader')
  })

  it('gives every later turn a fresh budget, so a long backlog goes on a slice at a time', async () => {
    const clock = { now: 0 }
    const slice = createRunnerTimeSlice({ budgetMs: 2, now: () => clock.now })
    const order: string[] = []
    let turns = 0
    const countTurns = () => {
      turns++
      if (turns < 50) setImmediate(countTurns)
    }
    setImmediate(countTurns)
    await runners(slice, clock, order, ['a', 'b'], 5)

    expect(order).toHaveLength(10)
    // 10 steps, at most 2 ms (+ the step that found the budget spent) per turn: spread over several turns.
    expect(turns).toBeGreaterThanOrEqual(3)
  })
})
