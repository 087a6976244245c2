import type { ChatModel } from '#shared/loop/chat-model'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolCallMode } from '#shared/loop/loop-types'
import type { ToolPolicyLookup } from '#shared/loop/tool-approval'
import type { ToolSet } from '#shared/tools/tool-types'
import type { LoopRecorder, LoopRecorderOptions } from '~/db/loop-recorder'
import type { MessageRecord } from '~/db/types'

// The shapes of `useChat`: what it is given, and what each way to run a reply gets from its one scaffold.

export interface UseChatOptions {
  /** Builds the model for a request from the current provider settings; `model` is the chat's own (from a preset). */
  createModel: (model?: string) => ChatModel
  /** The enabled and available tools for a request. */
  getToolSet: (context: { threadId: string, signal?: AbortSignal }) => Promise<ToolSet>
  /** @default () => 'auto' */
  toolCallMode?: () => ToolCallMode
  /** Model label stored on assistant rows. */
  modelLabel?: () => string | undefined
  /** Model requests per send at most. @default 10 */
  maxSteps?: number
  /** Resolves when tool plugins are loaded and tool states hydrated; awaited before each send. */
  ready?: () => Promise<unknown>
  /** Told about store failures (the reply may not be saved). */
  onStorageError?: (error: Error) => void
  /** Hears every LoopEvent after the recorder stored it (the tool registry's `lastError` follows them). */
  onEvent?: (event: LoopEvent, threadId?: string) => void
  /**
   * When it returns a model id, a send runs the chat on the server (OpenRouter with the server's key) and this
   * tab only records its events: closing the tab does not stop the reply. @default () => undefined
   */
  runOnServer?: () => { model: string, apiKey?: string } | undefined
  /** Whether the model (the chat's own, or the one of Settings) reads images. @default () => true */
  readsImages?: (model?: string) => Promise<boolean>
  /** The approval policy of a tool ('auto' | 'ask' | 'never'). @default the user's policies (tool-policies.ts) */
  toolPolicy?: ToolPolicyLookup
}

/** What a run's body gets from the scaffold: the thread, the Stop signal, and recorders bound to this run. */
export interface RunContext {
  id: string
  signal: AbortSignal
  /** A recorder for a new reply of this run: its failures end up on that reply's row. */
  recordReply: (extra?: Partial<LoopRecorderOptions>) => LoopRecorder
  /** A recorder writing on stored rows (a followed server job, an answered call): its failures show above the chat. */
  recordOn: (rows: MessageRecord[], extra?: Partial<LoopRecorderOptions>) => LoopRecorder
  /** The loop's one listener for a recorder: store, tell `onEvent`, let the page breathe. */
  listener: (recorder: LoopRecorder) => (event: LoopEvent) => Promise<void>
}

export type RunBody = (run: RunContext) => Promise<void>

/** What the chat says while another tab writes its reply. */
export const REPLY_ELSEWHERE = 'A reply is being written in another tab'
