import type { ToolCall } from '../types/chat'
import { executeToolCalls } from '../tools/execute-tool-calls'
import type { ToolResult, ToolSet } from '../tools/tool-types'
import type { EventChannel } from './event-channel'
import { toolCallEndEvent } from './loop-event'

export interface RunToolCallOptions {
  tools: ToolSet
  events: EventChannel
  threadId: string
  signal: AbortSignal
  /** @default 10_000 */
  toolTimeoutMs?: number
  /** @default 32_768 */
  maxResultChars?: number
}

/**
 * Runs one call cleared to run and reports it as the loop does: `tool-call-running` (awaited before the handler
 * starts, so a store that records it knows the call may have run), `tool-call-status` for each progress report,
 * then `tool-call-done` or `tool-call-error` with its result.
 */
export async function runToolCall(call: ToolCall, step: number, options: RunToolCallOptions): Promise<ToolResult> {
  const { events } = options
  const [result] = await executeToolCalls([call], options.tools, {
    threadId: options.threadId,
    signal: options.signal,
    defaultTimeoutMs: options.toolTimeoutMs ?? 10_000,
    maxResultChars: options.maxResultChars ?? 32_768,
    onStart: started => events.emit({ type: 'tool-call-running', step, call: started }),
    onStatus: (callId, text) => events.post({ type: 'tool-call-status', step, callId, text }),
    onResult: done => events.emit(toolCallEndEvent(step, done)),
  })
  return result!
}
