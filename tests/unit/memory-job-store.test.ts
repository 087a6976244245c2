import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createJobStore } from '~~/server/utils/background-jobs/store/create-job-store'
import { RESTART_INTERRUPTION } from '~~/server/utils/background-jobs/store/job-record-persistence'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { describeJobStoreContract, newJob } from './helpers/job-store-contract'

describeJobStoreContract('embedded store', {
  fakeTime: true,
  async open(retention) {
    // Sweep often so expiry is checked by the sweeper, not only by reads.
    const store = createMemoryJobStore({ ...retention, sweepIntervalMs: 100 })
    return { a: store, b: store }
  },
})

describe('embedded store across a restart (records under .data/ through unstorage\'s fs driver)', () => {
  const dirs: string[] = []
  afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }) })

  function diskStorage() {
    const dir = mkdtempSync(join(tmpdir(), 'plugboard-jobs-'))
    dirs.push(dir)
    return () => createStorage({ driver: fsDriver({ base: dir }) })
  }

  it('marks the jobs a restart cut \'interrupted\', keeping their state, and leaves finished ones as they were', async () => {
    const storage = diskStorage()
    const before = createMemoryJobStore({ storage: storage() })
    const running = newJob({ status: 'running', ownerId: 'old-process', state: { partialReply: 'The answer is' } })
    const paused = newJob({ status: 'paused' })
    const done = newJob({ status: 'done' })
    for (const job of [running, paused, done]) await before.putJob(job)
    await before.updateJob(running.id, { state: { partialReply: 'The answer is 4' } })
    await before.close()

    const after = createMemoryJobStore({ storage: storage() })
    const interrupted = await after.getJob(running.id)
    expect(interrupted).toMatchObject({ status: 'interrupted', error: RESTART_INTERRUPTION, state: { partialReply: 'The answer is 4' } })
    expect(interrupted!.ownerId).toBeUndefined()
    expect(await after.getJob(paused.id)).toMatchObject({ status: 'interrupted' })
    expect(await after.getJob(done.id)).toEqual(done)
    expect((await after.listJobs('session-1')).map(job => job.id).sort()).toEqual([running.id, paused.id, done.id].sort())
    // Events are not kept across a restart; a new stream starts at 1.
    expect(await after.readEvents(running.id, 0)).toEqual([])
    await after.close()

    // The interruption itself was saved: a second restart does not rewrite it.
    const again = createMemoryJobStore({ storage: storage() })
    expect(await again.getJob(running.id)).toEqual(interrupted)
    await again.close()
  })

  it('forgets expired jobs on disk too', async () => {
    const storage = diskStorage()
    const store = createMemoryJobStore({ storage: storage(), finishedJobTtlMs: 1, sweepIntervalMs: 60_000 })
    const job = newJob({ status: 'done', updatedAt: 0 })
    await store.putJob(job)
    expect(await storage().getKeys()).toHaveLength(1)
    // Reads drop an expired job at once, and its file follows.
    await expect.poll(() => store.getJob(job.id)).toBeUndefined()
    await expect.poll(() => storage().getKeys()).toEqual([])
    await store.close()
  })

  it('is what createJobStore gives without a Redis URL, keeping records in <dataDir>/jobs/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugboard-data-'))
    dirs.push(dir)
    const job = newJob()
    const before = createJobStore({ dataDir: dir })
    await before.putJob(job)
    expect(existsSync(join(dir, 'jobs', job.id))).toBe(true)
    await before.close()
    const after = createJobStore({ dataDir: dir })
    expect(await after.getJob(job.id)).toMatchObject({ id: job.id, status: 'interrupted' })
    await after.close()
  })
})
