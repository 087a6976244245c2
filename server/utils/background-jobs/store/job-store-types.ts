/**
 * The contract between background chats and where their state lives: in this process (embedded, the default) or
 * in Redis (`NUXT_REDIS_URL`), so that any instance can serve any job's stream. Implementations:
 * memory-job-store.ts and redis-job-store.ts; createJobStore() picks one.
 */

/** Where a job stands. 'paused' waits for a browser of its session (a browser-only tool was called). */
export type JobStatus = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'stopped' | 'interrupted'

/** One background chat (or workflow run). Never holds a provider key: keys live only in the running job's memory. */
export interface JobRecord {
  id: string
  /** The browser session that started it: other sessions get 404. */
  sessionId: string
  /** The chat it answers (the browser's thread id), when it is a chat. */
  threadId?: string
  kind: 'chat' | 'workflow'
  status: JobStatus
  createdAt: number
  updatedAt: number
  /** The instance running it now, and when that instance last said it was alive (ms). */
  ownerId?: string
  heartbeatAt?: number
  /**
   * The job runs on the user's own provider key, held only in the memory of the instance that took the request
   * (`ownerId`): no other instance can run or take it over, so when that instance goes quiet it is interrupted.
   */
  keyInMemory?: boolean
  /** Stop was asked for (from any instance): a runner that starts or takes the job over ends it at once. */
  stopRequested?: boolean
  /**
   * The fencing token of the newest run's claim (`claimJob`), bumped by each claim. Writes made with an older
   * token are refused, so a runner that stalled past its lock while another took over cannot write (or run on).
   */
  runToken?: number
  /** Set when status is 'failed' or 'interrupted'. */
  error?: string
  /**
   * Anything the runner needs to resume after a takeover (finished steps' messages, the tool switches at send time).
   * Dropped when the job finishes: nothing runs it again, and the tab keeps the chat from its events.
   */
  state?: unknown
  /** The client that started it (a hash of its IP, job-admission.ts), so a client's unfinished jobs can be counted. */
  clientKey?: string
  /** About how many bytes `state` holds (its JSON), counted against the session's and the client's budgets. */
  stateBytes?: number
}

/** What one session's or one client's unfinished jobs hold (job-admission.ts). */
export interface JobUsage {
  /** Unfinished jobs (queued, running or paused). */
  jobs: number
  /** The sum of their `stateBytes`. */
  bytes: number
}

/** One event of a job's stream, with an id strictly increasing per job (1, 2, 3...). */
export interface JobEvent<T = unknown> {
  id: number
  jobId: string
  event: T
}

/** A runner's claim on a job: its writes go through only while no later claim exists. */
export interface JobFence {
  token: number
}

/**
 * Storage of jobs and their ordered event streams. Every method may be called from any instance.
 * Stores are bounded (job-retention.ts): a job keeps its newest `maxEventsPerJob` events, so a reader asking for
 * dropped ids gets the oldest kept one first (its id above afterId + 1 shows the gap); a finished job, record and
 * events, is dropped `finishedJobTtlMs` after its last change, any job `idleJobTtlMs` after it.
 */
export interface JobStore {
  /** Creates or replaces a job record. */
  putJob: (job: JobRecord) => Promise<void>
  getJob: (jobId: string) => Promise<JobRecord | undefined>
  /**
   * Shallow-merges `patch` into the record (and bumps updatedAt); undefined when there is no such job. With
   * `fence`, a runner's write: refused with LeaseLostError (nothing written) unless the job's runToken is its token.
   */
  updateJob: (jobId: string, patch: Partial<JobRecord>, fence?: JobFence) => Promise<JobRecord | undefined>
  /**
   * A runner claims the job: bumps `runToken` and merges `patch` in one step, so every earlier claim's fenced writes
   * are refused from now on. Returns the record (its `runToken` is the new claim's token); undefined when no such job.
   */
  claimJob: (jobId: string, patch: Partial<JobRecord>) => Promise<JobRecord | undefined>
  /** Jobs of a session, newest first. */
  listJobs: (sessionId: string) => Promise<JobRecord[]>
  /** What the unfinished jobs of a session, or of a client (`clientKey`), hold, without reading their state. */
  activeUsage: (owner: { sessionId: string } | { clientKey: string }) => Promise<JobUsage>
  /**
   * Appends one event; returns its id (previous id + 1). Never loses or reorders an appended event. With `fence`,
   * refused with LeaseLostError (nothing appended) unless the job's record exists with that runToken.
   */
  appendEvent: <T>(jobId: string, event: T, fence?: JobFence) => Promise<number>
  /** Events with id > afterId, in order, at most `limit` (default 1000). */
  readEvents: <T>(jobId: string, afterId: number, limit?: number) => Promise<JobEvent<T>[]>
  /**
   * Delivers every event with id > afterId: first the backlog, then live ones as they are appended (from any
   * instance), each exactly once and in order, until `signal` aborts. Resolves when subscribed (backlog queued).
   */
  subscribe: <T>(jobId: string, afterId: number, onEvent: (event: JobEvent<T>) => void, signal: AbortSignal) => Promise<void>
  /** Releases connections and timers. */
  close: () => Promise<void>
}
