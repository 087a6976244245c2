import { afterEach, describe, expect, it, vi } from 'vitest'
import { BUSY_SLICE_MS, yieldToPageWhenBusy } from '~/utils/chat/scheduling/yield-to-page'

// A reply at loopback speed is thousands of events handled back to back; the page must get a turn in between.

/** Whether `promise` settles within a run of microtasks, i.e. without waiting for another task. */
async function settlesWithoutATask(promise: Promise<void>): Promise<boolean> {
  let settled = false
  void promise.then(() => (settled = true))
  for (let turn = 0; turn < 50; turn++) await Promise.resolve()
  return settled
}

afterEach(() => vi.useRealTimers())

describe('yieldToPageWhenBusy', () => {
  it('goes on at once while the burst is young, and waits for the next task once it was busy for the slice', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    expect(await settlesWithoutATask(yieldToPageWhenBusy())).toBe(true)
    vi.advanceTimersByTime(BUSY_SLICE_MS - 2)
    expect(await settlesWithoutATask(yieldToPageWhenBusy())).toBe(true)
    vi.advanceTimersByTime(4)
    const waiting = yieldToPageWhenBusy()
    expect(await settlesWithoutATask(waiting)).toBe(false)
    await waiting
    // A new slice starts after the break.
    expect(await settlesWithoutATask(yieldToPageWhenBusy())).toBe(true)
  })
})
