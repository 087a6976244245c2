import type { ToolCall, ToolDefinition } from '../types/chat'
import type { ToolFetch } from './tool-fetch'

export type { ToolFetch }

/** What a handler receives besides its arguments. */
export interface ToolExecutionContext {
  /** Aborted when the user presses Stop or the tool's timeout passes. Pass it to fetch(). */
  signal: AbortSignal
  threadId: string
  /** The model's id for this call. */
  callId: string
  /** Report progress; shown on the tool card while the handler runs. */
  status: (text: string) => void
  /** The user's settings for this tool (its `catalog.settings` schema, saved on the catalog page); `{}` when none. */
  settings: Readonly<Record<string, unknown>>
  /**
   * `fetch` with the call's signal, which says "blocked by this page's security policy: <origin> is not declared"
   * when the page may not connect to the origin (declare it in `connects`). Always set for a plugin's handler.
   */
  fetch?: ToolFetch
}

/** The context a handler written with `defineTool({ name, handler, ... })` receives: `fetch` is always there. */
export interface PluginToolContext extends ToolExecutionContext {
  fetch: ToolFetch
}

/**
 * A tool handler. Returns the result text for the model. Plain JSON values (objects, arrays, numbers,
 * booleans, null) are serialised with JSON.stringify; `undefined`, functions, symbols, bigints and
 * circular values are errors.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped until a schema types the arguments
export type ToolHandler<Args = any> = (args: Args, context: ToolExecutionContext) => unknown

/** A tool the engine can run: its OpenAI definition, its handler and its limits. */
export interface ExecutableTool {
  definition: ToolDefinition
  handler: ToolHandler
  /** Per-tool timeout in ms. @default 10_000 */
  timeoutMs?: number
  /** Handed to the handler as `context.settings`. @default {} */
  settings?: Readonly<Record<string, unknown>>
}

/** The tools offered for one request. Only these may run: a call to any other name is an error result. */
export interface ToolSet {
  /** Definitions sent to the model, in stable order. */
  definitions: ToolDefinition[]
  get: (name: string) => ExecutableTool | undefined
}

/** 'denied': the call did not run because the user declined it, nobody answered in time, or its approval policy is 'never' (see `error.kind`). */
export type ToolResultStatus = 'done' | 'error' | 'cancelled' | 'skipped' | 'denied'

export type ToolErrorKind =
  | 'no-such-tool'
  | 'invalid-input'
  | 'timeout'
  | 'execution'
  | 'invalid-output'
  | 'cancelled'
  | 'repeated-call'
  /** The user pressed Deny. */
  | 'denied-by-user'
  /** The tool's approval policy is 'never'. */
  | 'refused-by-policy'
  /** Nobody answered its approval request within the wait limit (a server job's `NUXT_JOB_WAIT_TIMEOUT_MS`). */
  | 'no-answer'
  /** Its server run was cut while it ran (the instance died) and the tool is not safe to run twice. */
  | 'interrupted'

/** The outcome of one call. `content` is what the model gets, `fullContent` what we keep. */
export interface ToolResult {
  callId: string
  name: string
  /** The raw arguments text as the model wrote it. */
  arguments: string
  status: ToolResultStatus
  /** Sent to the model: the result, cut to the size cap with a note, or a short error summary. */
  content: string
  /** The whole result (or the whole error text), stored in Dexie and shown under "View details". */
  fullContent: string
  truncated: boolean
  error?: { kind: ToolErrorKind, message: string }
  startedAt: number
  finishedAt: number
}

export type { ToolCall, ToolDefinition }
