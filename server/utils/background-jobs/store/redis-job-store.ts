import type { Redis } from 'ioredis'
import { isFinishedJob, resolveJobRetention } from './job-retention'
import type { JobRetentionOptions } from './job-retention'
import type { JobEvent, JobFence, JobRecord, JobStore } from './job-store-types'
import { LeaseLostError } from '../runner/lease-lost-error'
import { decodeJobFields, decodeStreamEntry, encodeEvent, encodeJobFields } from './redis-job-encoding'
import { jobStoreScripts, STALE_RUN_REPLY } from './redis-job-scripts'
import { subscribeToStream } from '../events/redis-event-subscription'
import type { StreamSubscription } from '../events/redis-event-subscription'

/** Options of the Redis store. */
export interface RedisJobStoreOptions extends JobRetentionOptions {
  /** The instance's client. The store never closes it (its owner does); subscriptions use duplicates of it. */
  redis: Redis
  /**
   * Prepended to every key, so several apps (or test runs) can share one Redis.
   * @default 'plugboard:'
   */
  keyPrefix?: string
}

/**
 * The JobStore on Redis, for several instances behind one Redis: any instance serves any job's stream.
 * A job is a hash (`job:{id}`, one JSON-encoded field per record property), its events a stream
 * (`job:{id}:events`, entry ids `<n>-0`), a session's jobs a sorted set by creation time. A job's two keys share
 * the `{id}` hash tag so they sit in one slot, as a Lua script touching both needs on a cluster.
 */
export function createRedisJobStore(options: RedisJobStoreOptions): JobStore {
  const { redis } = options
  const retention = resolveJobRetention(options)
  const prefix = options.keyPrefix ?? 'plugboard:'
  const scripts = jobStoreScripts(redis)
  const subscriptions = new Set<StreamSubscription>()

  const recordKey = (jobId: string) => `${prefix}job:{${jobId}}`
  const eventsKey = (jobId: string) => `${prefix}job:{${jobId}}:events`
  const sessionKey = (sessionId: string) => `${prefix}session:${sessionId}:jobs`
  const clientKeyOf = (clientKey: string) => `${prefix}client:${clientKey}:jobs`
  const ttlOf = (job: JobRecord) => (isFinishedJob(job) ? retention.finishedJobTtlMs : retention.idleJobTtlMs)

  async function merge(jobId: string, patch: Partial<JobRecord>, mode: 'update' | 'claim', fence?: JobFence): Promise<JobRecord | undefined> {
    // Only a claim moves the token (inside the script): a patch that carries one does not.
    const { id: _id, runToken: _token, ...fields } = patch
    const { set, unset } = encodeJobFields({ ...fields, updatedAt: Date.now() })
    const merged = await scripts.updateJobFields(recordKey(jobId), eventsKey(jobId), retention.finishedJobTtlMs, retention.idleJobTtlMs, mode, fenceToken(fence), set.length / 2, ...set, ...unset)
      .catch(refusal(jobId, fence))
    return decodeJobFields(merged)
  }

  return {
    async putJob(job) {
      const { set } = encodeJobFields(job)
      const ttl = ttlOf(job)
      const write = redis.multi()
        .del(recordKey(job.id))
        .hset(recordKey(job.id), ...set)
        .pexpire(recordKey(job.id), ttl)
        .pexpire(eventsKey(job.id), ttl)
        .zadd(sessionKey(job.sessionId), job.createdAt, job.id)
        .pexpire(sessionKey(job.sessionId), retention.idleJobTtlMs)
      if (job.clientKey) write.zadd(clientKeyOf(job.clientKey), job.createdAt, job.id).pexpire(clientKeyOf(job.clientKey), retention.idleJobTtlMs)
      await write.exec().then(throwFirstError)
    },
    async getJob(jobId) {
      return decodeJobFields(await redis.hgetall(recordKey(jobId)))
    },
    updateJob: (jobId, patch, fence) => merge(jobId, patch, 'update', fence),
    claimJob: (jobId, patch) => merge(jobId, patch, 'claim'),
    async listJobs(sessionId) {
      const ids = await redis.zrevrange(sessionKey(sessionId), 0, -1)
      if (ids.length === 0) return []
      const pipeline = redis.pipeline()
      for (const id of ids) pipeline.hgetall(recordKey(id))
      const replies = throwFirstError(await pipeline.exec())
      const jobs: JobRecord[] = []
      const gone: string[] = []
      replies.forEach((fields, index) => {
        const job = decodeJobFields(fields as Record<string, string>)
        if (job?.sessionId === sessionId) jobs.push(job)
        else gone.push(ids[index]!)
      })
      // Expired jobs (or ones moved to another session) leave their id behind in the index: tidy it now.
      if (gone.length > 0) await redis.zrem(sessionKey(sessionId), ...gone)
      return jobs.sort((a, b) => b.createdAt - a.createdAt)
    },
    async activeUsage(owner) {
      const [index, field, value] = 'sessionId' in owner
        ? [sessionKey(owner.sessionId), 'sessionId', owner.sessionId] as const
        : [clientKeyOf(owner.clientKey), 'clientKey', owner.clientKey] as const
      const ids = await redis.zrange(index, 0, -1)
      if (ids.length === 0) return { jobs: 0, bytes: 0 }
      // Three small fields a job, never its state: a budget check must not read megabytes.
      const pipeline = redis.pipeline()
      for (const id of ids) pipeline.hmget(recordKey(id), 'status', 'stateBytes', field)
      const replies = throwFirstError(await pipeline.exec()) as Array<Array<string | null>>
      const usage = { jobs: 0, bytes: 0 }
      const gone: string[] = []
      replies.forEach(([status, bytes, owned], at) => {
        const fields = Object.entries({ status, stateBytes: bytes, [field]: owned }).filter((pair): pair is [string, string] => pair[1] !== null)
        const job = decodeJobFields(Object.fromEntries(fields))
        // Expired, or not this owner's any more: tidy the index as listJobs does.
        if (!job?.status || job[field] !== value) return gone.push(ids[at]!)
        if (isFinishedJob(job)) return
        usage.jobs++
        usage.bytes += Number(job.stateBytes) || 0
      })
      if (gone.length > 0) await redis.zrem(index, ...gone)
      return usage
    },
    async appendEvent(jobId, event, fence) {
      const id = await scripts.appendJobEvent(eventsKey(jobId), recordKey(jobId), encodeEvent(event), retention.maxEventsPerJob, retention.finishedJobTtlMs, retention.idleJobTtlMs, fenceToken(fence))
        .catch(refusal(jobId, fence))
      return Number(id)
    },
    async readEvents<T>(jobId: string, afterId: number, limit = 1000) {
      if (!(limit >= 1)) return []
      const start = Math.max(0, Math.floor(afterId)) + 1
      const entries = await redis.xrange(eventsKey(jobId), `${start}-0`, '+', 'COUNT', Math.floor(limit))
      return entries.map(entry => decodeStreamEntry<T>(jobId, entry)) as JobEvent<T>[]
    },
    async subscribe<T>(jobId: string, afterId: number, onEvent: (event: JobEvent<T>) => void, signal: AbortSignal) {
      if (signal.aborted) return
      // `let`, declared first: onEnd may read it before the await below returns (a const would throw there).
      let subscription: StreamSubscription | undefined
      let ended = false
      // eslint-disable-next-line prefer-const
      subscription = await subscribeToStream<T>({
        redis,
        eventsKey: eventsKey(jobId),
        jobId,
        afterId: Math.max(0, Math.floor(afterId)),
        onEvent,
        signal,
        onEnd: () => {
          ended = true
          if (subscription) subscriptions.delete(subscription)
        },
      })
      if (!ended) subscriptions.add(subscription)
    },
    async close() {
      for (const subscription of [...subscriptions]) subscription.stop()
      subscriptions.clear()
    },
  }
}

/** A fence as the scripts compare it: the token as the record stores it (JSON of a number), '' for none. */
function fenceToken(fence: JobFence | undefined): string {
  return fence ? JSON.stringify(fence.token) : ''
}

/** Turns a script's refusal of a stale runner into LeaseLostError; other failures pass through. */
function refusal(jobId: string, fence: JobFence | undefined): (error: unknown) => never {
  return (error) => {
    if (fence && error instanceof Error && error.message.startsWith(STALE_RUN_REPLY)) throw new LeaseLostError(jobId, fence.token, { cause: error })
    throw error
  }
}

/** MULTI and pipelines report each command's error in their reply instead of rejecting: surface the first. */
function throwFirstError(replies: [Error | null, unknown][] | null): unknown[] {
  for (const [error] of replies ?? []) if (error) throw error
  return (replies ?? []).map(([, result]) => result)
}
