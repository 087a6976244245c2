/**
 * A question an MCP server asks during a chat that runs on the server, as the job's event stream carries it to the
 * tabs (`GET /api/chats/:id/events`), beside the LoopEvents: `mcp-question` when a call starts waiting for the
 * user, `mcp-question-end` when it stops (answered here or in another tab, timed out, withdrawn). The answer goes
 * back through `POST /api/chats/:id/questions`. These events are not the loop's: the recorder never sees them.
 */
import { isRecord } from '../types/is-record'
import type { McpElicitationRequest } from './mcp-call-hooks'

export type McpJobQuestionEvent =
  | { type: 'mcp-question', callId: string, serverName: string, request: McpElicitationRequest }
  | { type: 'mcp-question-end', callId: string }

const TYPES: ReadonlySet<unknown> = new Set(['mcp-question', 'mcp-question-end'])

/** Whether a job event is a question event (and not a LoopEvent). */
export function isMcpJobQuestionEvent(event: unknown): event is McpJobQuestionEvent {
  if (!isRecord(event) || !TYPES.has(event.type) || typeof event.callId !== 'string') return false
  if (event.type === 'mcp-question-end') return true
  const request = event.request
  return typeof event.serverName === 'string' && isRecord(request) && typeof request.message === 'string'
    && ((request.mode === 'form' && isRecord(request.form) && Array.isArray(request.form.fields) && isRecord(request.form.initial))
      || (request.mode === 'url' && typeof request.url === 'string'))
}

/** What a tab sends to answer: the user's Accept (with the form's content), Decline or Cancel. */
export interface McpJobQuestionAnswerBody {
  callId: string
  action: 'accept' | 'decline' | 'cancel'
  content?: Record<string, unknown>
}
