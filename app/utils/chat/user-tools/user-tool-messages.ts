/**
 * The messages between the page and a user tool's worker. Like the plugin sandbox (../sandbox), a worker runs
 * one request at a time, so messages carry no id. Only JSON crosses: the source, the arguments, the outcome.
 */

/** Page → worker. */
export type UserToolWorkerRequest =
  | {
    type: 'run'
    /** The handler: the body of `async function (args) { ... }`. */
    code: string
    args: unknown
    /** QuickJS interrupts the handler this long after `startedAt`; the page terminates the worker a little later. */
    timeoutMs: number
    /** `Date.now()` on the page when the call was sent. */
    startedAt: number
  }
  /** Parse the handler without running it. */
  | { type: 'check', code: string }

/**
 * Worker → page. `status` (the handler's console output, for the tool card) comes before the one `result` or
 * `error`, the shapes the plugin sandbox's client reads; `logs` is there for the editor's test run.
 */
export type UserToolWorkerResponse =
  | { type: 'status', text: string }
  | { type: 'result', value: unknown, logs: string[], droppedLogs: number }
  | { type: 'error', name: string, message: string, logs: string[], droppedLogs: number }
  | { type: 'checked', problem: string | null }
