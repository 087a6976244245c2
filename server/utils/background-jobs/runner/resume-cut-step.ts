import { decideToolCall } from '#shared/loop/decide-tool-call'
import type { EventChannel } from '#shared/loop/event-channel'
import { toolCallEndEvent } from '#shared/loop/loop-event'
import type { ApproveToolCall, ToolPolicyLookup } from '#shared/loop/tool-approval'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import type { ToolResult, ToolSet } from '#shared/tools/tool-types'
import type { ToolCall } from '#shared/types/chat'
import type { CutStep } from './cut-step'
import { interruptedToolResult } from './cut-step'

export interface ResumeCutStepOptions {
  tools: ToolSet
  /** The run's events (recorded on the job's stream, fenced), already numbered as steps of the whole chat. */
  events: EventChannel
  signal: AbortSignal
  threadId: string
  /** Whether a call that started and never ended may run again: only tools with no effect outside the app. */
  isSafeToRepeat: (toolName: string) => boolean
  toolPolicy?: ToolPolicyLookup
  approveToolCall?: ApproveToolCall
  /** @default 10_000 */
  toolTimeoutMs?: number
  /** @default 32_768 */
  maxResultChars?: number
}

/**
 * Ends a cut step's calls, in a takeover, without asking the model again: a call that ended keeps its result; a
 * call that started and never ended runs again only when it is safe to repeat, else it ends with an error saying
 * it may or may not have completed (never silently twice); a call cleared to run runs; any other is decided as the
 * loop would (its approval policy, maybe the user's answer). Returns every call's result in the model's order.
 */
export async function resumeCutStep(cut: CutStep, options: ResumeCutStepOptions): Promise<ToolResult[]> {
  const { events } = options
  const { step } = cut
  const run = async (call: ToolCall): Promise<ToolResult> => {
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
  const end = async (call: ToolCall): Promise<ToolResult> => {
    const ended = cut.results.get(call.id)
    if (ended) return ended
    const started = cut.started.get(call.id)
    if (started) {
      if (options.isSafeToRepeat(started.function.name)) return run(started)
      const result = interruptedToolResult(started)
      await events.emit(toolCallEndEvent(step, result))
      return result
    }
    const cleared = cut.cleared.get(call.id)
    if (cleared) return run(cleared)
    const decision = await decideToolCall(call, { step, tools: options.tools, events, signal: options.signal, toolPolicy: options.toolPolicy, approveToolCall: options.approveToolCall })
    if ('result' in decision) {
      await events.emit(toolCallEndEvent(step, decision.result))
      return decision.result
    }
    return run(decision.run)
  }
  const settled = await Promise.allSettled((cut.message.tool_calls ?? []).map(end))
  const failure = settled.find(outcome => outcome.status === 'rejected')
  if (failure) throw failure.reason
  await events.drain()
  return settled.map(outcome => (outcome as PromiseFulfilledResult<ToolResult>).value)
}
