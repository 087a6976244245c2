import type { ToolCall, TokenUsage } from '#shared/types/chat'
import type { LoopFailure } from '#shared/loop/loop-types'
import type { ChatParameters } from '#shared/types/chat-parameters'
import type { McpAppPermission } from '#shared/mcp/apps/mcp-app-permissions'

/** A conversation. Ordered in the sidebar by `updatedAt`. */
export interface ThreadRecord {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  /** Model used last in this thread, for display. */
  model?: string
  /**
   * This chat's own tool switches, by tool name: only the tools whose switch differs here from All chats (the
   * global switches). A tool not listed follows the global switch. (Issue 9: tool choice per chat.)
   */
  toolChoices?: Record<string, boolean>
  /**
   * The newest row of the branch shown: the model's history is the path from the first row to this one (parent
   * links). Undefined for an empty chat.
   */
  activeLeafId?: string
  /** Sent as the first `system` message of every request of this chat (`chat-settings.ts`). */
  systemPrompt?: string
  /** This chat's sampling parameters; none: the provider's defaults. */
  parameters?: ChatParameters
  /** The model this chat asks, from the preset it started from; undefined: the model chosen in Settings. */
  chatModel?: string
  /** The preset the chat started from (its name is shown; the chat keeps its own copy of the settings). */
  presetId?: string
  /** When the user pinned the chat (the list shows pinned chats first); absent: not pinned. */
  pinned?: number
  /** The user named the chat: a title the model writes is never put over it. */
  titleByUser?: boolean
  /** When the model was asked for the chat's title (asked once per chat, after its first reply). */
  titleRequested?: number
}

/**
 * The server job answering a thread (a chat run on the server), and the id of the last of its events recorded
 * here: reopening the chat reads on from there. Deleted when the job's last event is recorded. A table of its own
 * (`server-jobs.ts`), not a field of the thread: it is written at every checkpoint of a reply, and a thread write
 * re-reads the sidebar and, with sync on, sends the chat again.
 */
export interface ServerJobRecord {
  threadId: string
  /** The job's id on the server. */
  id: string
  lastEventId: number
  /** The step the last recorded event belonged to (a takeover may repeat it). */
  step?: number
}

/**
 * A preset: a named bundle of system prompt, model, tools and parameters a new chat (or a workflow) can start
 * from. `id` and `updatedAt` make rows mergeable when presets sync.
 */
export interface PresetRecord {
  id: string
  name: string
  systemPrompt: string
  /** Empty: the model chosen in Settings. */
  model: string
  /** The tools switched on in a chat started from it (names); undefined: the chat follows All chats. */
  tools?: string[]
  parameters?: ChatParameters
  createdAt: number
  updatedAt: number
}

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool'

/**
 * - pending: stored, request not answered yet
 * - streaming: reply arriving
 * - complete: finalised
 * - interrupted: the page was closed or reloaded mid-stream (set at start-up)
 * - stopped: the user pressed Stop
 * - error: the provider or the loop failed (see `error`)
 */
export type MessageStatus = 'pending' | 'streaming' | 'complete' | 'interrupted' | 'stopped' | 'error'

/** 'awaiting-approval': the loop waits for the user's Allow once / Always allow / Deny (kept across a reload). */
export type ToolCallStatus = 'queued' | 'awaiting-approval' | 'running' | 'done' | 'error' | 'cancelled' | 'skipped' | 'denied'

/** A failure as stored on a message: the loop's own description of it (`fail` events carry the same). */
export type StoredError = LoopFailure

/** A loop notice as a row keeps it: `code` and `params` say `message` in the user's language. */
export interface StoredNotice { kind: string, message: string, code?: string, params?: Record<string, string | number> }

/** One row per message. Tool results are their own rows (role 'tool'), after the assistant row that asked. */
export interface MessageRecord {
  id: string
  threadId: string
  /** Order of creation within the thread, strictly increasing (a branch added later has higher numbers). */
  seq: number
  /** The row this one answers or follows; undefined for a first row (an edited first message is a second root). */
  parentId?: string
  /**
   * 1 while the row is on the path from the first row to the thread's active leaf, absent otherwise. Derived from
   * the parent links whenever the leaf moves; indexed so the visible branch is read in pages without a walk.
   */
  onPath?: 1
  role: MessageRole
  /** Text. For tool rows: what the model received (maybe truncated). */
  content: string
  reasoning?: string
  status: MessageStatus
  error?: StoredError
  /** Assistant rows: the calls it made, as sent back to the model. */
  toolCalls?: ToolCall[]
  /** Tool rows: */
  toolCallId?: string
  toolName?: string
  toolArguments?: string
  toolStatus?: ToolCallStatus
  toolStatusText?: string
  /** Tool rows: the whole result (content may be cut for the model). */
  toolResultFull?: string
  truncated?: boolean
  startedAt?: number
  finishedAt?: number
  /** A notice about the loop shown under the message (step cap with Continue, repeated call). */
  notice?: StoredNotice
  /** Every notice of the turn, in order (`notice` is the last of them). */
  notices?: StoredNotice[]
  usage?: TokenUsage
  /** User rows: the files sent with it (their blobs are rows of `attachments`, linked by `messageId`). */
  attachments?: AttachmentSummary[]
  /** Tool rows of an MCP tool with an interface: the app's HTML and last state, so the card shows it after a reload. */
  mcpApp?: McpAppRecord
  /**
   * A reply written on by Continue: how many characters of `content` it held before (its cut text). A tab that
   * reopens it mid-continuation (a server-run chat) keeps that text when the step's own text arrives.
   */
  continuedFrom?: number
  model?: string
  createdAt: number
  updatedAt: number
}

/** Where a logged tool run stands. */
export type AuditStatus = ToolCallStatus | 'awaiting-approval' | 'denied'

/**
 * One tool run, kept in its own table (the audit log): it outlives the chat it came from until the user clears it
 * or the retention setting removes it.
 */
export interface AuditRecord {
  id: string
  toolName: string
  toolCallId: string
  /** The chat it ran in; the chat may have been deleted since (the log outlives it). */
  threadId?: string
  /** The chat's title when the run was logged, so a row still says where it came from after the chat is gone. */
  threadTitle?: string
  /** The arguments as the model asked for them, and as they ran (edited on approval). */
  argumentsAsked: string
  argumentsRun?: string
  /** 'auto' (policy ran it without asking), 'allowed-once', 'always-allowed', 'denied', 'never' (policy refused). */
  decision?: string
  decidedAt?: number
  /** 'awaiting-approval' while the user has not answered; 'denied' when the user or the policy refused it. */
  status: AuditStatus
  /** When the run was logged first (the call asked for approval, or started). Indexed: the list's order. */
  startedAt: number
  finishedAt?: number
  durationMs?: number
  /** Size of the whole result in UTF-8 bytes (what the tool returned, before any cut for the model). */
  resultBytes?: number
  /** The model got a cut result (read_tool_result pages through the rest). */
  truncated?: boolean
  error?: string
  /** Who asked for the run when the model did not: `app:<tool>` for an MCP App on that tool's card. */
  requestedBy?: string
}

/** A tool the user wrote in the app: JSON Schema arguments and a JavaScript handler run in QuickJS in a Worker. */
export interface UserToolRecord {
  id: string
  name: string
  description: string
  /** JSON Schema of the arguments, as text (what the user typed). */
  parameters: string
  /** The handler's source: the body of `async function (args) { ... }`. */
  code: string
  /** The call's time limit in ms. @default 5000 (USER_TOOL_DEFAULT_TIMEOUT_MS) */
  timeoutMs?: number
  enabled?: boolean
  createdAt: number
  updatedAt: number
}

/** An image (sent to models that read images) or a document (kept for search, named to the model). */
export type AttachmentKind = 'image' | 'document'

/** What a message row says about one of its attachments, so the list shows it without reading the blob. */
export interface AttachmentSummary {
  id: string
  kind: AttachmentKind
  name: string
  mime: string
  /** Bytes of the stored blob. */
  size: number
  width?: number
  height?: number
  /** A document's search index: being built, built (pages and passages read), or failed (why, for the user). */
  index?: DocumentIndexState
  /** The MCP resource a document was read from: its text is sent inline with the message, under its URI. */
  resourceUri?: string
}

export type DocumentIndexState = { status: 'indexing' } | { status: 'ready', pages: number, passages: number } | { status: 'failed', message: string }

/** A file sent with a user message: the blob (an image already resized), in its own table. */
export interface AttachmentRecord extends AttachmentSummary {
  threadId: string
  messageId: string
  blob: Blob
  createdAt: number
}

/**
 * One passage of a document attached to a chat (`documentPassages`), what `search_documents` finds. Kept apart from
 * the attachment's blob so the chat's index can be rebuilt after a reload without reading the file again.
 */
export interface DocumentPassageRecord {
  /** `<attachmentId>#<index, zero-padded>`: a document's passages sort in reading order. */
  id: string
  attachmentId: string
  threadId: string
  /** The file's name as attached, shown to the model and in the tool card. */
  name: string
  /** 1-based page of a PDF; absent for formats without pages. */
  page?: number
  /** Position of the passage in its document, from 0. */
  index: number
  text: string
}

/**
 * An MCP App shown on a tool call's card (the tool's `ui://` resource), kept on the tool row: what the frame needs
 * to show it again (its HTML, declared domains) and the state it last had (the call's input and result, what it
 * last told the model).
 */
export interface McpAppRecord {
  /** The registry name of the tool whose call shows it (`server__tool`). */
  toolName: string
  /** The MCP server's name in Settings (its tools are the ones the app may call). */
  serverName: string
  uri: string
  html: string
  csp: { connectDomains: string[], resourceDomains: string[] }
  prefersBorder?: boolean
  /** Browser capabilities the app's resource asked for (camera, microphone…): none is granted; the card says so. */
  permissionsAsked?: McpAppPermission[]
  /** The call's arguments, sent to the app as `ui/notifications/tool-input`. */
  input?: Record<string, unknown>
  /** The server's `tools/call` result, sent as `ui/notifications/tool-result` (absent when too large to keep). */
  result?: Record<string, unknown>
  /**
   * The result of the last tool call the app itself made that succeeded (absent when too large to keep): sent to
   * the app after `result` when it is shown again, so a reload shows the state the user left, not the first one.
   */
  latestResult?: Record<string, unknown>
  /** What the app last asked to put in the model's context (`ui/update-model-context`), as text. */
  modelContext?: string
  /** The frame's last height inline (px), so the card keeps its size when it is shown again. */
  frameHeight?: number
}
