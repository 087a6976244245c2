import type { ToolResult } from '#shared/tools/tool-types'
import type { MessagePatch } from './messages'

/** What a finished call writes on its tool row: the result for the model, the whole of it, and how it ended. */
export function toolResultPatch(result: ToolResult): MessagePatch {
  return {
    status: 'complete',
    toolStatus: result.status,
    toolArguments: result.arguments,
    content: result.content,
    toolResultFull: result.fullContent,
    truncated: result.truncated,
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    toolStatusText: undefined,
    // The kind tells the card apart ("Timed out" rather than "Failed").
    ...(result.error && result.error.kind !== 'cancelled' && { error: { kind: result.error.kind, message: result.error.message, retryable: false } }),
  }
}
