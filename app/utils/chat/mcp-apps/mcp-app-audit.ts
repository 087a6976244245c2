/**
 * The audit log of the tool calls an MCP App makes through its card: the same rows as the model's calls (asked
 * arguments, the approval decision, status, duration, result size), marked `requestedBy: app:<tool of the card>`
 * and with a call id of their own (`app-…`), so the log tells them apart from the model's.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { LoopEvent, ToolApprovalDecision } from '#shared/loop/loop-event'
import type { ToolResult } from '#shared/tools/tool-types'
import { createAuditRecorder } from '~/db/audit-recorder'
import type { AuditRecorder } from '~/db/audit-recorder'

/** The text of a result's content blocks (the bridge's own helper loads with the bridge; this file loads before it). */
function textOf(blocks: unknown): string {
  if (!Array.isArray(blocks)) return ''
  return blocks.map(block => (typeof block === 'object' && block !== null && 'text' in block && typeof block.text === 'string' ? block.text : '')).filter(Boolean).join('\n')
}

let recorder: AuditRecorder | undefined

/** The recorder of app calls (one per tab; its writes queue behind each other; the chat's recorder prunes the log). */
export function mcpAppAuditRecorder(): AuditRecorder {
  return recorder ??= createAuditRecorder({ onStorageError: error => console.error('[plugboard] could not write an app\'s call to the audit log:', error) })
}

export interface McpAppCallAudit {
  /** The call waits for the user's answer (its tool's policy is Ask). */
  asking: () => void
  decided: (decision: ToolApprovalDecision) => void
  running: () => void
  /** The server's answer (an `isError` result ends as an error). */
  done: (result: CallToolResult) => void
  /** Refused or failed before or instead of a result. */
  failed: (message: string, kind: 'execution' | 'denied-by-user' | 'refused-by-policy' | 'no-such-tool') => void
}

let sequence = 0

/** Starts the log of one call an app asked for; each step writes (and never throws into the bridge). */
export function auditMcpAppCall(options: { threadId: string, appTool: string, toolName: string, args: Record<string, unknown> }): McpAppCallAudit {
  const { threadId, toolName } = options
  const callId = `app-${Date.now().toString(36)}-${(++sequence).toString(36)}`
  const argumentsText = JSON.stringify(options.args)
  const call = { id: callId, type: 'function' as const, function: { name: toolName, arguments: argumentsText } }
  const startedAt = Date.now()
  const requestedBy = `app:${options.appTool}`
  const write = (event: LoopEvent) => void mcpAppAuditRecorder().record(event, threadId, requestedBy)
  const end = (status: ToolResult['status'], text: string, error?: ToolResult['error']) => {
    const result: ToolResult = {
      callId, name: toolName, arguments: argumentsText, status, content: text, fullContent: text, truncated: false,
      ...(error && { error }), startedAt, finishedAt: Date.now(),
    }
    write(status === 'done' ? { type: 'tool-call-done', step: 0, result } : { type: 'tool-call-error', step: 0, result })
  }
  return {
    asking: () => write({ type: 'tool-call-awaiting-approval', step: 0, call }),
    decided: decision => write({ type: 'tool-call-approval', step: 0, callId, toolName, decision, arguments: argumentsText, askedArguments: argumentsText, decidedAt: Date.now() }),
    running: () => write({ type: 'tool-call-running', step: 0, call }),
    done: (result) => {
      const text = textOf(result.content)
      if (result.isError) end('error', text, { kind: 'execution', message: text || 'The server answered with an error.' })
      else end('done', result.structuredContent === undefined ? text : `${text}\n${JSON.stringify(result.structuredContent)}`)
    },
    failed: (message, kind) => end(kind === 'denied-by-user' || kind === 'refused-by-policy' ? 'denied' : 'error', message, { kind, message }),
  }
}
