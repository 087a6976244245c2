import type { ToolCall } from '#shared/types/chat'
import { CUT_OFF_RESULT } from '#shared/history/repair-tool-history'
import { isCutToolCall } from '#shared/history/tool-call-shape'
import type { McpAppRecord, MessageRecord, MessageStatus, ToolCallStatus } from '~/db/types'

/** What one tool-call card shows. Built from a stored tool row, or from a call that has no row yet. */
export interface ToolCardData {
  /** The model's call id. */
  callId: string
  /** The tool's name as the model called it. */
  name: string
  /** Human label from the registry (falls back to `name`). */
  label?: string
  /** Iconify name from the registry, e.g. `i-lucide-calculator`. */
  icon?: string
  status: ToolCallStatus
  /** The handler's latest progress text (running). */
  statusText?: string
  /** The raw arguments text the model wrote. */
  arguments?: string
  /** One short line of the result (done). */
  preview?: string
  /** The whole result, shown under "View details". */
  fullResult?: string
  /** Error text (error, cancelled, skipped). */
  error?: string
  /** The call did not run because the tool's approval policy is 'never' (status 'denied'). */
  refusedByPolicy?: boolean
  /** The call did not run because nobody answered its approval request in time (a server job's wait limit). */
  unanswered?: boolean
  /** The call failed because its handler ran past its time limit. */
  timedOut?: boolean
  /** Not run because the model repeated the same call too often (its error text is meant for the model). */
  repeated?: boolean
  durationMs?: number
  /** The model received a shortened result. */
  truncated?: boolean
  /** Stop or an error cut the call while the model was still writing it (no name, or unfinished arguments). */
  cutOff?: boolean
  /** The MCP App the call's row keeps (shown on the card). */
  mcpApp?: McpAppRecord
}

/** Longest preview, in characters, before an ellipsis. @default 120 */
export const TOOL_PREVIEW_LENGTH = 120

/** One line of `text`: whitespace collapsed, cut to `max` characters with an ellipsis. */
export function previewLine(text: string, max = TOOL_PREVIEW_LENGTH): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** Card data from a stored tool row (role 'tool'). */
export function toolCardFromRow(row: MessageRecord, labels?: Record<string, { label: string, icon: string }>): ToolCardData {
  return withCutOff(rowCard(row, labels))
}

function rowCard(row: MessageRecord, labels?: Record<string, { label: string, icon: string }>): ToolCardData {
  const name = row.toolName ?? 'tool'
  const status: ToolCallStatus = row.toolStatus ?? (row.status === 'error' ? 'error' : 'done')
  const fullResult = row.toolResultFull ?? row.content
  const failed = status === 'error' || status === 'cancelled' || status === 'skipped' || status === 'denied'
  const durationMs = row.startedAt !== undefined && row.finishedAt !== undefined && row.finishedAt >= row.startedAt
    ? row.finishedAt - row.startedAt
    : undefined
  return {
    callId: row.toolCallId ?? row.id,
    name,
    label: labels?.[name]?.label,
    icon: labels?.[name]?.icon,
    status,
    statusText: row.toolStatusText,
    arguments: row.toolArguments,
    preview: status === 'done' && fullResult ? previewLine(fullResult) : undefined,
    fullResult: fullResult || undefined,
    error: failed ? (row.error?.message || row.content || undefined) : undefined,
    timedOut: status === 'error' && row.error?.kind === 'timeout',
    repeated: status === 'skipped' && row.error?.kind === 'repeated-call',
    refusedByPolicy: status === 'denied' && row.error?.kind === 'refused-by-policy',
    unanswered: status === 'denied' && row.error?.kind === 'no-answer',
    durationMs,
    truncated: row.truncated,
    ...(row.mcpApp && { mcpApp: row.mcpApp }),
  }
}

/**
 * Card data for a call the assistant made that has no tool row yet: queued while its turn is live,
 * cancelled when the turn ended (stopped, interrupted, failed) before it ran.
 */
export function toolCardFromCall(
  call: ToolCall,
  messageStatus: MessageStatus,
  labels?: Record<string, { label: string, icon: string }>,
): ToolCardData {
  const ended = messageStatus === 'stopped' || messageStatus === 'interrupted' || messageStatus === 'error'
  return withCutOff({
    callId: call.id,
    name: call.function.name,
    label: labels?.[call.function.name]?.label,
    icon: labels?.[call.function.name]?.icon,
    status: ended ? 'cancelled' : 'queued',
    arguments: call.function.arguments,
  })
}

/**
 * A cancelled call the model had not finished writing is shown as "cut off", with what the model was told,
 * so the card and the repaired history agree (see repairToolHistory).
 */
function withCutOff(card: ToolCardData): ToolCardData {
  // Rows stored before the arguments were known carry none: not evidence of a cut.
  if (card.status !== 'cancelled' || !isCutToolCall(card.name, card.arguments ?? '')) return card
  return { ...card, cutOff: true, error: CUT_OFF_RESULT, ...(card.name.trim() === '' && !card.label ? { label: 'Unnamed tool' } : {}) }
}

/**
 * The cards of one assistant row, in the model's order: each of its `toolCalls` paired with its row by call id;
 * rows that match no call (should not happen, but history is data) follow in their stored order.
 */
export function toolCardsForMessage(
  message: MessageRecord,
  toolRows: MessageRecord[] = [],
  labels?: Record<string, { label: string, icon: string }>,
): ToolCardData[] {
  const rowsById = new Map(toolRows.filter(row => row.toolCallId).map(row => [row.toolCallId!, row]))
  const cards: ToolCardData[] = []
  const used = new Set<MessageRecord>()
  for (const call of message.toolCalls ?? []) {
    const row = rowsById.get(call.id)
    if (row) {
      used.add(row)
      const card = rowCard(row, labels)
      cards.push(withCutOff({ ...card, arguments: card.arguments ?? call.function.arguments }))
    }
    else {
      cards.push(toolCardFromCall(call, message.status, labels))
    }
  }
  for (const row of toolRows) {
    if (!used.has(row)) cards.push(toolCardFromRow(row, labels))
  }
  return cards
}
