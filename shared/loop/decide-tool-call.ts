import type { ToolCall } from '../types/chat'
import { cancelledToolResult } from '../tools/execute-tool-calls'
import type { ToolResult, ToolSet } from '../tools/tool-types'
import type { EventChannel } from './event-channel'
import type { ToolApprovalDecision } from './loop-event'
import type { ApproveToolCall, ToolApprovalAnswer, ToolPolicyLookup } from './tool-approval'
import {
  DENIED_CONTENT, deniedToolResult, NO_ANSWER_CONTENT, NO_APPROVER_CONTENT, REFUSED_CONTENT, waitUnlessAborted, withArguments,
} from './tool-approval'

export interface DecideToolCallOptions {
  step: number
  tools: ToolSet
  events: EventChannel
  signal: AbortSignal
  toolPolicy?: ToolPolicyLookup
  approveToolCall?: ApproveToolCall
  /**
   * The user was already asked about this call (it waited across a reload or a takeover): their answer decides,
   * whatever the policy says now (an "Always allow" has already turned it to 'auto'). @default false
   */
  asked?: boolean
}

/** A call cleared to run (with the arguments that run), or the result it ends with instead. */
export type CallDecision = { run: ToolCall } | { result: ToolResult }

/**
 * Decides whether one call runs, before it runs: its policy 'auto' runs it, 'never' refuses it, 'ask' emits
 * `tool-call-awaiting-approval` and waits for the hook's answer (Stop ends the wait: the call is cancelled).
 * Every decision is reported as a `tool-call-approval` event, so an audit log sees each one.
 */
export async function decideToolCall(call: ToolCall, options: DecideToolCallOptions): Promise<CallDecision> {
  const { step, events, signal } = options
  const asked = call.function.arguments
  const report = (decision: ToolApprovalDecision, argumentsText = asked) => events.emit({
    type: 'tool-call-approval', step, callId: call.id, toolName: call.function.name, decision, arguments: argumentsText, askedArguments: asked, decidedAt: Date.now(),
  })
  const policy = options.asked ? 'ask' : options.toolPolicy?.(call.function.name) ?? 'auto'
  if (policy === 'auto') {
    await report('auto')
    return { run: call }
  }
  if (policy === 'never') {
    await report('never')
    return { result: deniedToolResult(call, 'refused-by-policy', REFUSED_CONTENT) }
  }
  if (!options.approveToolCall) {
    await report('denied')
    return { result: deniedToolResult(call, 'denied-by-user', NO_APPROVER_CONTENT) }
  }
  await events.emit({ type: 'tool-call-awaiting-approval', step, call })
  let answer: Awaited<ReturnType<typeof waitUnlessAborted<ToolApprovalAnswer>>>
  try {
    answer = await waitUnlessAborted(options.approveToolCall(call, options.tools.get(call.function.name), { step, signal }), signal)
  }
  catch (error) {
    // a hook that rejects because of Stop is a Stop, not a failure of the run
    if (signal.aborted) answer = { aborted: true }
    else throw error
  }
  if (answer.aborted) return { result: cancelledToolResult(call) }
  const { decision } = answer.value
  if (decision === 'denied') {
    await report('denied')
    return { result: deniedToolResult(call, 'denied-by-user', DENIED_CONTENT) }
  }
  if (decision === 'no-answer') {
    await report('no-answer')
    return { result: deniedToolResult(call, 'no-answer', NO_ANSWER_CONTENT) }
  }
  const edited = typeof answer.value.arguments === 'string' ? answer.value.arguments : asked
  await report(decision === 'always-allowed' ? 'always-allowed' : 'allowed-once', edited)
  return { run: edited === asked ? call : withArguments(call, edited) }
}
