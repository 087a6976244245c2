// runInIdleSteps: the message list grows its render buffer in steps of their own after a chat opens.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { runInIdleSteps } from '~/utils/chat/scheduling/idle-steps'

describe('runInIdleSteps', () => {
  beforeEach(() => { vi.useFakeTimers() })
  afterEach(() => { vi.useRealTimers() })

  it('runs nothing at once, then one step per idle period, in order', () => {
    const ran: number[] = []
    runInIdleSteps([() => ran.push(1), () => ran.push(2), () => ran.push(3)])
    expect(ran).toEqual([])
    vi.advanceTimersToNextTimer()
    expect(ran).toEqual([1])
    vi.advanceTimersToNextTimer()
    expect(ran).toEqual([1, 2])
    vi.runAllTimers()
    expect(ran).toEqual([1, 2, 3])
  })

  it('runs no further step once cancelled', () => {
    const ran: number[] = []
    const steps = runInIdleSteps([() => ran.push(1), () => ran.push(2)])
    vi.advanceTimersToNextTimer()
    steps.cancel()
    vi.runAllTimers()
    expect(ran).toEqual([1])
  })

  it('starts again from the first step on restart (a chat switch)', () => {
    const ran: number[] = []
    const steps = runInIdleSteps([() => ran.push(1), () => ran.push(2)])
    vi.runAllTimers()
    steps.restart()
    vi.runAllTimers()
    expect(ran).toEqual([1, 2, 1, 2])
  })
})
