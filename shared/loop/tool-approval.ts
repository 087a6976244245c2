import type { ToolCall } from '../types/chat'
import type { ToolApprovalPolicy } from '../types/server-tools'
import type { ExecutableTool, ToolResult } from '../tools/tool-types'
import { onAbort } from '../stream/on-abort'

/** What the user answered on a card waiting for approval. */
export interface ToolApprovalAnswer {
  /**
   * 'always-allowed' also sets the tool's policy to 'auto' (the caller's job: the loop only runs the call).
   * 'no-answer': nobody answered within the run's wait limit (a server job's `NUXT_JOB_WAIT_TIMEOUT_MS`); the call
   * does not run and the chat goes on.
   */
  decision: 'allowed-once' | 'always-allowed' | 'denied' | 'no-answer'
  /** The arguments as the user edited them (JSON text); absent: as the model asked. Checked against the schema before they run. */
  arguments?: string
}

/** What the approval hook is told besides the call. */
export interface ToolApprovalContext {
  step: number
  /** Aborted when the user presses Stop: the hook may stop waiting (the loop stops waiting anyway). */
  signal: AbortSignal
}

/**
 * Asks the user about one call whose policy is 'ask' and resolves with the answer. The loop waits without a time
 * limit (the tool's own timeout starts only when it runs); Stop ends the wait and the call ends 'cancelled'.
 */
export type ApproveToolCall = (call: ToolCall, tool: ExecutableTool | undefined, context: ToolApprovalContext) => Promise<ToolApprovalAnswer>

/** The policy in force for a tool on this run. */
export type ToolPolicyLookup = (toolName: string) => ToolApprovalPolicy

/** The default approval policy of a tool from its metadata: its `approval`, else 'ask' when it acts outside the app, else 'auto'. */
export function defaultApprovalPolicy(metadata: { approval?: ToolApprovalPolicy, actsOutsideApp?: boolean }): ToolApprovalPolicy {
  if (metadata.approval && isApprovalPolicy(metadata.approval)) return metadata.approval
  return metadata.actsOutsideApp ? 'ask' : 'auto'
}

export const APPROVAL_POLICIES: readonly ToolApprovalPolicy[] = ['auto', 'ask', 'never']

export function isApprovalPolicy(value: unknown): value is ToolApprovalPolicy {
  return typeof value === 'string' && (APPROVAL_POLICIES as readonly string[]).includes(value)
}

/** What the model reads when the user pressed Deny. */
export const DENIED_CONTENT = 'Not run: the user declined this tool call. Do not call it again unless the user asks; answer without it or ask the user how to go on.'

/** What the model reads when the tool's policy is 'never'. */
export const REFUSED_CONTENT = 'Not run: the user\'s settings never allow this tool. Answer without it.'

/** What the model reads when a call needs approval but the run has nobody to ask. */
export const NO_APPROVER_CONTENT = 'Not run: this tool needs the user\'s approval and nobody could be asked.'

/** What the model reads when nobody answered the approval request within the wait limit. */
export const NO_ANSWER_CONTENT = 'Not run: the user did not answer the approval request in time. Do not call it again now; answer without it, or tell the user it needs their approval.'

/** The result of a call that did not run because the user or the policy said no, or nobody answered (status 'denied'). */
export function deniedToolResult(call: ToolCall, kind: 'denied-by-user' | 'refused-by-policy' | 'no-answer', content: string, at = Date.now()): ToolResult {
  return {
    callId: call.id, name: call.function.name, arguments: call.function.arguments, status: 'denied',
    content, fullContent: content, truncated: false, error: { kind, message: content }, startedAt: at, finishedAt: at,
  }
}

/** The call with other arguments (the user's edit), everything else as the model wrote it. */
export function withArguments(call: ToolCall, argumentsText: string): ToolCall {
  return { ...call, function: { ...call.function, arguments: argumentsText } }
}

/**
 * Waits for `promise` unless `signal` aborts first. Resolves `{ aborted: true }` on abort, so Stop settles the wait
 * even when the hook ignores its signal.
 */
export function waitUnlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<{ aborted: false, value: T } | { aborted: true }> {
  if (signal.aborted) return Promise.resolve({ aborted: true })
  return new Promise((resolve, reject) => {
    // One dispatcher for every call awaiting an answer in the step (onAbort), not a listener each.
    const stopListening = onAbort(signal, () => resolve({ aborted: true }))
    promise.then(
      value => resolve({ aborted: false, value }),
      error => reject(error),
    ).finally(stopListening)
  })
}
