// What the background-jobs bench's coordinator and its instance processes say to each other (IPC messages).

/** How an instance is set up. */
export interface InstanceConfig {
  /** Its name, carried in every event it emits (so a reader tells the other instance's events apart). */
  name: string
  mode: 'embedded' | 'redis'
  redisUrl?: string
  queueName: string
  keyPrefix: string
  /** The fake model's base URL (`…/v1`). */
  modelUrl: string
  /** Jobs this instance's worker runs at once; 0: no worker (a web instance that only serves streams). */
  concurrency: number
  steps: number
  /** 'neither' runs its chats without the runner time slice (BENCH_JOBS_NO_SLICE, see no-time-slice.mjs). @default 'slice' */
  runner?: 'neither' | 'slice'
  /** Serve a small HTTP route on the main thread (GET /ping), whose latency the coordinator probes. */
  serve?: boolean
}

export type ToInstance =
  | { type: 'init', config: InstanceConfig }
  /** Create `count` chats and subscribe to each of them here. */
  | { type: 'create', count: number }
  | { type: 'enqueue' }
  /** Every chat waits in its last step: wait for the events in flight, then measure memory. */
  | { type: 'measure' }
  | { type: 'close' }

export type FromInstance =
  | { type: 'ready', url?: string }
  | { type: 'created' }
  | { type: 'enqueued' }
  | { type: 'measured', heapDeltaMb: number, rssMb: number }
  /** A chat it follows failed before its last step (the model will not be asked for it). */
  | { type: 'lost' }
  | { type: 'done', crossInstance: number[], sameInstance: number[], appendRoundTrips: number[], failed: number, loopDelayP99Ms: number }
  | { type: 'closed' }

/** An event as the bench's runners append it: stamped with the emitting instance and the wall clock (ms, sub-ms). */
export interface StampedEvent {
  type: string
  steps?: number
  emittedBy: string
  emittedAt: number
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes on one machine. */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now()
}
