import type { Storage } from 'unstorage'
import { createJobRecordPersistence } from './job-record-persistence'
import { isFinishedJob, resolveJobRetention } from './job-retention'
import type { JobRetentionOptions } from './job-retention'
import type { JobEvent, JobFence, JobRecord, JobStore } from './job-store-types'
import { LeaseLostError } from '../runner/lease-lost-error'
import { createOrderedDelivery } from '../events/ordered-delivery'

/** Options of the embedded store. */
export interface MemoryJobStoreOptions extends JobRetentionOptions {
  /**
   * Where job records outlive the process (unstorage, e.g. its fs driver under `.data/jobs`). On start the store
   * reads them back and marks the ones a restart cut 'interrupted'. Events stay in memory only.
   * @default undefined (nothing survives a restart)
   */
  storage?: Storage
  /**
   * How often finished and idle jobs are dropped, in ms. Reads drop an expired job too, so this only bounds memory.
   * @default 60_000
   */
  sweepIntervalMs?: number
}

interface JobEntry {
  record?: JobRecord
  /** The newest `maxEventsPerJob` events, ids contiguous and ascending. */
  events: JobEvent[]
  lastId: number
  touchedAt: number
  listeners: Set<(event: JobEvent) => void>
}

/**
 * The embedded JobStore: everything in this process, for a single instance (the default). Bounded: at most
 * `maxEventsPerJob` events a job, finished jobs dropped after `finishedJobTtlMs`, untouched ones after `idleJobTtlMs`.
 * Records and events are copied in and out, as they would be through Redis.
 */
export function createMemoryJobStore(options: MemoryJobStoreOptions = {}): JobStore {
  const retention = resolveJobRetention(options)
  const entries = new Map<string, JobEntry>()
  const persistence = options.storage ? createJobRecordPersistence(options.storage) : undefined
  const ready = restore()
  const sweeper = setInterval(sweep, options.sweepIntervalMs ?? 60_000)
  // A pending sweep is no reason to keep the process alive.
  sweeper.unref?.()

  async function restore(): Promise<void> {
    // A kept job's time to live starts again at the restart: the clock of the process that wrote it is gone.
    const now = Date.now()
    for (const record of await persistence?.restore(now) ?? []) {
      entries.set(record.id, { record, events: [], lastId: 0, touchedAt: now, listeners: new Set() })
    }
  }

  function isExpired(entry: JobEntry, now: number): boolean {
    const ttl = isFinishedJob(entry.record) ? retention.finishedJobTtlMs : retention.idleJobTtlMs
    return now - entry.touchedAt >= ttl
  }

  function forget(jobId: string): void {
    entries.delete(jobId)
    persistence?.remove(jobId).catch(reportError)
  }

  function sweep(): void {
    const now = Date.now()
    for (const [jobId, entry] of entries) if (isExpired(entry, now)) forget(jobId)
  }

  /** The job's entry unless it expired (then it is dropped now, not at the next sweep). */
  function current(jobId: string): JobEntry | undefined {
    const entry = entries.get(jobId)
    if (entry && isExpired(entry, Date.now())) {
      forget(jobId)
      return undefined
    }
    return entry
  }

  function entryFor(jobId: string): JobEntry {
    let entry = current(jobId)
    if (!entry) {
      entry = { events: [], lastId: 0, touchedAt: Date.now(), listeners: new Set() }
      entries.set(jobId, entry)
    }
    return entry
  }

  function eventsAfter(entry: JobEntry | undefined, afterId: number, limit = Infinity): JobEvent[] {
    if (!entry || entry.events.length === 0 || !(limit >= 1)) return []
    const start = Math.max(0, Math.floor(afterId) + 1 - entry.events[0]!.id)
    return entry.events.slice(start, start + limit)
  }

  /** Refuses a runner's write made with a claim that is no longer the job's newest. */
  function checkFence(jobId: string, record: JobRecord | undefined, fence: JobFence | undefined): void {
    if (fence && record?.runToken !== fence.token) throw new LeaseLostError(jobId, fence.token)
  }

  async function merge(jobId: string, patch: Partial<JobRecord>, change: (record: JobRecord) => Partial<JobRecord>): Promise<JobRecord | undefined> {
    const record = current(jobId)?.record
    if (!record) return undefined
    // Only a claim moves the token: a patch that carries one does not.
    const { runToken: _token, ...fields } = structuredClone(patch)
    const updated: JobRecord = { ...record, ...fields, ...change(record), id: record.id, updatedAt: Date.now() }
    await store(updated)
    return structuredClone(updated)
  }

  async function store(job: JobRecord): Promise<void> {
    const entry = entryFor(job.id)
    entry.record = structuredClone(job)
    entry.touchedAt = Date.now()
    await persistence?.save(entry.record)
  }

  return {
    async putJob(job) {
      await ready
      await store(job)
    },
    async getJob(jobId) {
      await ready
      const record = current(jobId)?.record
      return record && structuredClone(record)
    },
    async updateJob(jobId, patch, fence) {
      await ready
      checkFence(jobId, current(jobId)?.record, fence)
      return merge(jobId, patch, () => ({}))
    },
    async claimJob(jobId, patch) {
      await ready
      return merge(jobId, patch, record => ({ runToken: (record.runToken ?? 0) + 1 }))
    },
    async listJobs(sessionId) {
      await ready
      const now = Date.now()
      const records = [...entries.values()]
        .filter(entry => entry.record?.sessionId === sessionId && !isExpired(entry, now))
        .map(entry => structuredClone(entry.record!))
      return records.sort((a, b) => b.createdAt - a.createdAt)
    },
    async activeUsage(owner) {
      await ready
      const now = Date.now()
      const usage = { jobs: 0, bytes: 0 }
      for (const entry of entries.values()) {
        const record = entry.record
        if (!record || isFinishedJob(record) || isExpired(entry, now)) continue
        if ('sessionId' in owner ? record.sessionId !== owner.sessionId : record.clientKey !== owner.clientKey) continue
        usage.jobs++
        usage.bytes += record.stateBytes ?? 0
      }
      return usage
    },
    async appendEvent(jobId, event, fence) {
      await ready
      checkFence(jobId, current(jobId)?.record, fence)
      const entry = entryFor(jobId)
      const appended: JobEvent = { id: entry.lastId + 1, jobId, event: structuredClone(event) }
      entry.lastId = appended.id
      entry.touchedAt = Date.now()
      entry.events.push(appended)
      if (entry.events.length > retention.maxEventsPerJob) entry.events.splice(0, entry.events.length - retention.maxEventsPerJob)
      for (const listener of entry.listeners) listener(appended)
      return appended.id
    },
    async readEvents<T>(jobId: string, afterId: number, limit = 1000) {
      await ready
      return eventsAfter(current(jobId), afterId, limit) as JobEvent<T>[]
    },
    async subscribe<T>(jobId: string, afterId: number, onEvent: (event: JobEvent<T>) => void, signal: AbortSignal) {
      await ready
      if (signal.aborted) return
      const entry = entryFor(jobId)
      const unsubscribe = () => entry.listeners.delete(listener)
      const delivery = createOrderedDelivery<T>(afterId, onEvent, (error) => {
        unsubscribe()
        reportError(new Error(`A subscriber of job ${jobId} threw; its subscription stopped.`, { cause: error }))
      })
      const listener = delivery.push as (event: JobEvent) => void
      // Backlog and registration in one synchronous stretch: no append can fall between them.
      for (const event of eventsAfter(entry, afterId)) listener(event)
      if (delivery.failed) return
      entry.listeners.add(listener)
      signal.addEventListener('abort', unsubscribe, { once: true })
    },
    async close() {
      clearInterval(sweeper)
      await ready.catch(() => {})
      for (const entry of entries.values()) entry.listeners.clear()
    },
  }
}

function reportError(error: unknown): void {
  console.error('[job-store]', error)
}
