/**
 * The messages between the page and a tool sandbox worker. A worker runs one call at a time, so messages
 * carry no call id: whatever a busy worker says is about the call it was given.
 */

/** Page → worker: run one call. Only the arguments and these ids cross; never the page's objects. */
export interface SandboxRunRequest {
  type: 'run'
  /** The plugin's file name in `plugins/`, e.g. `calculate.ts`. */
  file: string
  toolName: string
  /** The arguments, already validated against the tool's parameters by the executor. */
  args: unknown
  threadId: string
  callId: string
  /** The user's settings for the tool (`context.settings`): plain JSON. */
  settings?: Readonly<Record<string, unknown>>
}

/** Worker → page: progress (any number), then exactly one `result` or `error`. */
export type SandboxResponse =
  | { type: 'status', text: string }
  | { type: 'result', value: unknown }
  | { type: 'error', name: string, message: string }
