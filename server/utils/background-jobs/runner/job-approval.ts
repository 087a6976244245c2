import type { ApproveToolCall, ToolPolicyLookup } from '#shared/loop/tool-approval'
import { defaultApprovalPolicy } from '#shared/loop/tool-approval'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import { getServerTool } from '../../chat/tool-registry'
import { waitForJobApproval } from './pending-approvals'

export interface JobApprovalOptions {
  jobId: string
  /** The tab's policies at send time, by tool name. */
  toolPolicies?: Record<string, ToolApprovalPolicy>
  /** Told when the job starts and stops waiting for the user: its record says 'paused' / 'running', its slot is parked. */
  onWaiting: (waiting: boolean) => Promise<void> | void
  /** How long a call waits for its answer before it ends 'no-answer' (`NUXT_JOB_WAIT_TIMEOUT_MS`). */
  waitTimeoutMs: number
}

/**
 * A background chat's approval: the policies the tab sent with the job (a tool it did not name gets its server
 * default: 'ask' when it acts outside the app), and a wait for `POST /api/chats/:id/approvals` from any tab of the
 * session on calls that ask, at most `waitTimeoutMs` (then the call ends 'no-answer' and the chat goes on). Stop ends
 * the wait.
 */
export function jobApproval(options: JobApprovalOptions): { toolPolicy: ToolPolicyLookup, approveToolCall: ApproveToolCall } {
  let waitingCalls = 0
  // "Always allow" holds for the rest of this job too, not only for the tab's next send
  const allowed = new Set<string>()
  return {
    toolPolicy: name => (allowed.has(name) ? 'auto' : options.toolPolicies?.[name] ?? defaultApprovalPolicy(getServerTool(name)?.definition ?? {})),
    approveToolCall: async (call, tool, context) => {
      if (waitingCalls++ === 0) await options.onWaiting(true)
      try {
        const answer = await waitForJobApproval({
          jobId: options.jobId, callId: call.id, toolName: call.function.name,
          schema: tool?.definition.function.parameters, signal: context.signal, timeoutMs: options.waitTimeoutMs,
        })
        if (answer.decision === 'always-allowed') allowed.add(call.function.name)
        return answer
      }
      finally {
        if (--waitingCalls === 0) await options.onWaiting(false)
      }
    },
  }
}
