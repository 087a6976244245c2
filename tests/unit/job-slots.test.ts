import { describe, expect, it } from 'vitest'
import { createJobSlotPool } from '~~/server/utils/background-jobs/queue/job-slots'

describe('runner slots', () => {
  it('frees a slot while its run is parked and serves the parked run before new jobs when a slot frees', async () => {
    const pool = createJobSlotPool(1)
    expect(pool.tryTake()).toBe(true)
    const parked = pool.slotFor()
    parked.release()
    expect(pool.busy).toBe(0)

    expect(pool.tryTake()).toBe(true)
    const other = pool.slotFor()
    const order: string[] = []
    const back = parked.acquire().then(() => order.push('parked run'))
    const fresh = pool.take().then(() => order.push('new job'))
    // a parked run waiting for its slot goes first: no new job may jump in
    expect(pool.tryTake()).toBe(false)
    other.end()
    await back
    expect(order).toEqual(['parked run'])
    parked.end()
    await fresh
    expect(order).toEqual(['parked run', 'new job'])
    expect(pool.busy).toBe(1)
  })

  it('lets a run stopped while it waits for its slot end without one', async () => {
    const pool = createJobSlotPool(1)
    pool.tryTake()
    const parked = pool.slotFor()
    parked.release()
    pool.tryTake()
    const busy = pool.slotFor()
    const stop = new AbortController()
    const back = parked.acquire(stop.signal)
    stop.abort()
    await back
    parked.end()
    expect(pool.busy).toBe(1)
    busy.end()
    expect(pool.busy).toBe(0)
    expect(pool.tryTake()).toBe(true)
  })

  it('tells the queue when a slot frees with nobody waiting, so it starts the next job', () => {
    let freed = 0
    const pool = createJobSlotPool(2, () => freed++)
    pool.tryTake()
    const slot = pool.slotFor()
    slot.release()
    slot.release()
    expect(freed).toBe(1)
    slot.end()
    expect(freed).toBe(1)
    expect(pool.busy).toBe(0)
  })
})
