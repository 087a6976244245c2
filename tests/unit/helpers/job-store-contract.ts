// The behaviour every JobStore keeps, embedded or on Redis: one suite, run by memory-job-store.test.ts and
// redis-job-store.test.ts. Each test writes through instance A and reads through instance B: on Redis they are
// two stores on two connections (two app instances), embedded they are the same store.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { JobRetentionOptions } from '~~/server/utils/background-jobs/store/job-retention'
import type { JobEvent, JobRecord, JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { LeaseLostError } from '~~/server/utils/background-jobs/runner/lease-lost-error'

export interface JobStoreHarness {
  /** Opens stores A and B over one backing store, empty of other tests' jobs. */
  open: (retention?: JobRetentionOptions) => Promise<{ a: JobStore, b: JobStore }>
  /** Whether time can be faked (embedded); on Redis, expiry runs on Redis' clock and the tests wait for it. */
  fakeTime: boolean
}

let sequence = 0
/** A fresh job id (and record) per test. */
export function newJob(overrides: Partial<JobRecord> = {}): JobRecord {
  sequence += 1
  return { id: `job-${process.pid}-${sequence}`, sessionId: 'session-1', kind: 'chat', status: 'running', createdAt: 1000 + sequence, updatedAt: 1000 + sequence, ...overrides }
}

/** Collects what a subscription delivers. */
export function collector<T = unknown>() {
  const events: JobEvent<T>[] = []
  return { events, onEvent: (event: JobEvent<T>) => { events.push(event) }, ids: () => events.map(event => event.id) }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)

export function describeJobStoreContract(name: string, harness: JobStoreHarness): void {
  describe(`${name}: the JobStore contract`, () => {
    const opened: JobStore[] = []
    const controllers: AbortController[] = []

    async function open(retention?: JobRetentionOptions) {
      const stores = await harness.open(retention)
      opened.push(stores.a, stores.b)
      return stores
    }
    function signal() {
      const controller = new AbortController()
      controllers.push(controller)
      return controller
    }

    afterEach(async () => {
      for (const controller of controllers.splice(0)) controller.abort()
      await Promise.all([...new Set(opened.splice(0))].map(store => store.close()))
      vi.useRealTimers()
    })

    it('counts a session\'s and a client\'s unfinished jobs and their bytes, without reading their state', async () => {
      const { a, b } = await open()
      const client = `client-${sequence}`
      await a.putJob(newJob({ sessionId: 'usage-1', clientKey: client, status: 'queued', stateBytes: 1000 }))
      await a.putJob(newJob({ sessionId: 'usage-1', clientKey: client, status: 'paused', stateBytes: 500 }))
      const finishing = newJob({ sessionId: 'usage-1', clientKey: client, status: 'running', stateBytes: 7 })
      await a.putJob(finishing)
      await a.putJob(newJob({ sessionId: 'usage-2', clientKey: client, status: 'running', stateBytes: 40 }))
      await a.putJob(newJob({ sessionId: 'usage-1', status: 'done', stateBytes: 99 }))
      expect(await b.activeUsage({ sessionId: 'usage-1' })).toEqual({ jobs: 3, bytes: 1507 })
      expect(await b.activeUsage({ clientKey: client })).toEqual({ jobs: 4, bytes: 1547 })
      await a.updateJob(finishing.id, { status: 'done', state: undefined, stateBytes: undefined })
      expect(await b.activeUsage({ sessionId: 'usage-1' })).toEqual({ jobs: 2, bytes: 1500 })
      expect(await b.activeUsage({ clientKey: 'nobody' })).toEqual({ jobs: 0, bytes: 0 })
    })

    it('keeps job records and lists a session\'s jobs newest first, without other sessions\' jobs', async () => {
      const { a, b } = await open()
      const older = newJob({ createdAt: 1, state: { messages: [{ role: 'user', content: 'hi' }] } })
      const newer = newJob({ createdAt: 2 })
      await a.putJob(older)
      await a.putJob(newer)
      await a.putJob(newJob({ sessionId: 'someone-else' }))
      expect(await b.getJob(older.id)).toEqual(older)
      expect((await b.listJobs('session-1')).map(job => job.id)).toEqual([newer.id, older.id])
      expect(await b.getJob('no-such-job')).toBeUndefined()
    })

    it('merges an update into the record, bumps updatedAt and clears fields patched to undefined', async () => {
      const { a, b } = await open()
      const job = newJob({ error: 'first try failed', updatedAt: 0 })
      await a.putJob(job)
      const updated = await b.updateJob(job.id, { status: 'done', error: undefined, ownerId: 'instance-b' })
      expect(updated).toMatchObject({ id: job.id, sessionId: 'session-1', status: 'done', ownerId: 'instance-b' })
      expect(updated!.error).toBeUndefined()
      expect(updated!.updatedAt).toBeGreaterThan(0)
      expect(await a.getJob(job.id)).toEqual(updated)
      expect(await a.updateJob('no-such-job', { status: 'done' })).toBeUndefined()
      expect(await a.getJob('no-such-job')).toBeUndefined()
    })

    it('refuses a runner\'s writes once a later run claimed the job, and writes nothing for it', async () => {
      const { a, b } = await open()
      const job = newJob({ status: 'queued' })
      await a.putJob(job)
      const first = await a.claimJob(job.id, { status: 'running', ownerId: 'instance-a' })
      expect(first).toMatchObject({ status: 'running', ownerId: 'instance-a', runToken: 1 })
      const stale = { token: first!.runToken! }
      expect(await a.appendEvent(job.id, 'from a', stale)).toBe(1)
      // Instance A stalls; B takes the job over with a newer claim.
      const second = await b.claimJob(job.id, { ownerId: 'instance-b' })
      expect(second!.runToken).toBe(2)
      const before = await b.getJob(job.id)
      await expect(a.appendEvent(job.id, 'late from a', stale)).rejects.toSatisfy(LeaseLostError.isInstance)
      await expect(a.updateJob(job.id, { state: { stepsDone: 9 }, status: 'done' }, stale)).rejects.toSatisfy(LeaseLostError.isInstance)
      expect(await b.getJob(job.id)).toEqual(before)
      expect(await b.appendEvent(job.id, 'from b', { token: second!.runToken! })).toBe(2)
      expect(await b.updateJob(job.id, { status: 'done' }, { token: 2 })).toMatchObject({ status: 'done', runToken: 2 })
      // Writes that are no runner's (Stop, an ending after a restart) are not fenced.
      expect(await a.appendEvent(job.id, 'unfenced')).toBe(3)
      expect((await b.readEvents(job.id, 0)).map(event => event.event)).toEqual(['from a', 'from b', 'unfenced'])
    })

    it('lets no patch move the fencing token, and refuses fenced writes to a job that is gone', async () => {
      const { a, b } = await open()
      const job = newJob()
      await a.putJob(job)
      await a.claimJob(job.id, {})
      await a.claimJob(job.id, {})
      // A stale runner cannot make its token current again by writing it.
      expect(await b.updateJob(job.id, { runToken: 1 })).toMatchObject({ runToken: 2 })
      await expect(b.appendEvent(job.id, 'x', { token: 1 })).rejects.toSatisfy(LeaseLostError.isInstance)
      expect(await a.claimJob('no-such-job', { status: 'running' })).toBeUndefined()
      await expect(a.appendEvent('no-such-job', 'x', { token: 1 })).rejects.toSatisfy(LeaseLostError.isInstance)
      expect(await b.readEvents('no-such-job', 0)).toEqual([])
    })

    it('numbers each job\'s events 1, 2, 3... on its own', async () => {
      const { a, b } = await open()
      const first = newJob()
      const second = newJob()
      expect([await a.appendEvent(first.id, 'x'), await b.appendEvent(first.id, 'y'), await a.appendEvent(first.id, 'z')]).toEqual([1, 2, 3])
      expect(await a.appendEvent(second.id, { type: 'text-delta', text: 'hi' })).toBe(1)
      expect(await b.readEvents(first.id, 0)).toEqual([{ id: 1, jobId: first.id, event: 'x' }, { id: 2, jobId: first.id, event: 'y' }, { id: 3, jobId: first.id, event: 'z' }])
      expect(await b.readEvents(second.id, 0)).toEqual([{ id: 1, jobId: second.id, event: { type: 'text-delta', text: 'hi' } }])
    })

    it('reads events after an id, at most `limit`', async () => {
      const { a, b } = await open()
      const job = newJob()
      for (const n of range(1, 10)) await a.appendEvent(job.id, { n })
      expect((await b.readEvents(job.id, 4, 3)).map(event => event.id)).toEqual([5, 6, 7])
      expect(await b.readEvents(job.id, 10)).toEqual([])
      expect(await b.readEvents('no-such-job', 0)).toEqual([])
    })

    it('gives concurrent appends from two instances distinct, strictly increasing ids and loses none', async () => {
      const { a, b } = await open()
      const job = newJob()
      const ids = await Promise.all(range(1, 200).map(n => (n % 2 ? a : b).appendEvent(job.id, { n })))
      expect([...ids].sort((x, y) => x - y)).toEqual(range(1, 200))
      const events = await b.readEvents<{ n: number }>(job.id, 0, 1000)
      expect(events.map(event => event.id)).toEqual(range(1, 200))
      // Each append's event sits under the id that append was given.
      const idOf = new Map(ids.map((id, index) => [index + 1, id]))
      for (const event of events) expect(idOf.get(event.event.n)).toBe(event.id)
    })

    it('delivers the backlog then live events, each once and in order, while appends keep coming', async () => {
      const { a, b } = await open()
      const job = newJob()
      for (const n of range(1, 100)) await a.appendEvent(job.id, { n })
      const seen = collector<{ n: number }>()
      const appending = (async () => { for (const n of range(101, 300)) await a.appendEvent(job.id, { n }) })()
      await b.subscribe(job.id, 0, seen.onEvent, signal().signal)
      await appending
      await vi.waitFor(() => expect(seen.events).toHaveLength(300))
      expect(seen.ids()).toEqual(range(1, 300))
      expect(seen.events.map(event => event.event.n)).toEqual(range(1, 300))
    })

    it('has delivered the backlog when subscribe resolves', async () => {
      const { a, b } = await open()
      const job = newJob()
      for (const n of range(1, 5)) await a.appendEvent(job.id, n)
      const seen = collector()
      await b.subscribe(job.id, 0, seen.onEvent, signal().signal)
      expect(seen.ids()).toEqual(range(1, 5))
    })

    it('subscribes from a middle id, then follows live appends (also to a job with no events yet)', async () => {
      const { a, b } = await open()
      const job = newJob()
      for (const n of range(1, 10)) await a.appendEvent(job.id, n)
      const fromMiddle = collector()
      await b.subscribe(job.id, 4, fromMiddle.onEvent, signal().signal)
      const empty = newJob()
      const fromNothing = collector()
      await b.subscribe(empty.id, 0, fromNothing.onEvent, signal().signal)
      await a.appendEvent(job.id, 11)
      await a.appendEvent(empty.id, 'first')
      await vi.waitFor(() => expect(fromMiddle.ids()).toEqual(range(5, 11)))
      await vi.waitFor(() => expect(fromNothing.events).toEqual([{ id: 1, jobId: empty.id, event: 'first' }]))
    })

    it('stops delivering when the subscription aborts', async () => {
      const { a, b } = await open()
      const job = newJob()
      await a.appendEvent(job.id, 1)
      const stopped = collector()
      const controller = signal()
      await b.subscribe(job.id, 0, stopped.onEvent, controller.signal)
      const witness = collector()
      await b.subscribe(job.id, 0, witness.onEvent, signal().signal)
      controller.abort()
      await a.appendEvent(job.id, 2)
      await a.appendEvent(job.id, 3)
      // The witness, subscribed alongside, has seen everything: the aborted one would have by now too.
      await vi.waitFor(() => expect(witness.ids()).toEqual([1, 2, 3]))
      await b.readEvents(job.id, 0)
      expect(stopped.ids()).toEqual([1])
      // Already aborted: nothing at all.
      const late = collector()
      await b.subscribe(job.id, 0, late.onEvent, AbortSignal.abort())
      expect(late.events).toEqual([])
    })

    it('stops only the subscription whose handler throws; appends and other subscribers go on', async () => {
      const { a, b } = await open()
      const job = newJob()
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
      const healthy = collector()
      let calls = 0
      await b.subscribe(job.id, 0, () => { calls += 1; throw new Error('subscriber bug') }, signal().signal)
      await b.subscribe(job.id, 0, healthy.onEvent, signal().signal)
      await a.appendEvent(job.id, 1)
      await a.appendEvent(job.id, 2)
      await vi.waitFor(() => expect(healthy.ids()).toEqual([1, 2]))
      expect(calls).toBe(1)
      await vi.waitFor(() => expect(quiet).toHaveBeenCalled())
      quiet.mockRestore()
    })

    it('keeps only the newest maxEventsPerJob events; a reader sees the gap and ids go on', async () => {
      const { a, b } = await open({ maxEventsPerJob: 5 })
      const job = newJob()
      for (const n of range(1, 8)) await a.appendEvent(job.id, n)
      expect((await b.readEvents(job.id, 0)).map(event => event.id)).toEqual([4, 5, 6, 7, 8])
      const seen = collector()
      await b.subscribe(job.id, 0, seen.onEvent, signal().signal)
      expect(await a.appendEvent(job.id, 9)).toBe(9)
      await vi.waitFor(() => expect(seen.ids()).toEqual([4, 5, 6, 7, 8, 9]))
    })

    it('drops a finished job (record and events) after finishedJobTtlMs but keeps a running one', async () => {
      if (harness.fakeTime) vi.useFakeTimers()
      const { a, b } = await open({ finishedJobTtlMs: 300, idleJobTtlMs: 60_000 })
      const finished = newJob()
      const running = newJob()
      await a.putJob(finished)
      await a.putJob(running)
      await a.appendEvent(finished.id, 'last words')
      await a.appendEvent(running.id, 'still going')
      await a.updateJob(finished.id, { status: 'done' })
      await vi.waitFor(async () => expect(await b.getJob(finished.id)).toBeUndefined(), { timeout: 5000, interval: 50 })
      expect(await b.readEvents(finished.id, 0)).toEqual([])
      expect((await b.listJobs('session-1')).map(job => job.id)).toEqual([running.id])
      expect(await b.getJob(running.id)).toMatchObject({ status: 'running' })
      expect(await b.readEvents(running.id, 0)).toHaveLength(1)
    })

    it('drops a job nobody touched for idleJobTtlMs, whatever its status', async () => {
      if (harness.fakeTime) vi.useFakeTimers()
      const { a, b } = await open({ idleJobTtlMs: 300 })
      const abandoned = newJob({ status: 'paused' })
      await a.putJob(abandoned)
      await a.appendEvent(abandoned.id, 'waiting for a browser')
      await vi.waitFor(async () => expect(await b.getJob(abandoned.id)).toBeUndefined(), { timeout: 5000, interval: 50 })
      expect(await b.readEvents(abandoned.id, 0)).toEqual([])
    })
  })
}
