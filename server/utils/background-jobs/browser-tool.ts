import type { ToolDefinition } from '#shared/types/chat'
import { WAITING_FOR_BROWSER } from '#shared/types/background-chats'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { ToolCancelledError } from '#shared/errors/tool-cancelled-error'
import { addPendingBrowserCall, removePendingBrowserCall } from './running-jobs'
import type { BrowserToolAnswer } from './running-jobs'


/** How long a job waits for a tab to run a browser-only tool before the call fails. @default 30 min */
const BROWSER_TOOL_TIMEOUT_MS = 30 * 60_000

export interface BrowserToolOptions {
  jobId: string
  /** Told when the job starts and stops waiting, so its record says 'paused' / 'running'. */
  onWaiting: (waiting: boolean) => Promise<void> | void
}

/**
 * A tool the server cannot run (it lives in the user's tab): its handler parks the call with the card saying
 * "waiting for this browser" until a tab of the session answers through POST /api/chats/:id/tool-results (on any instance: the answer
 * reaches this one through the job control), the user cancels the call there (it ends 'cancelled'), or the job is
 * stopped (the executor then cancels the call).
 */
export function browserTool(definition: ToolDefinition, options: BrowserToolOptions): ExecutableTool {
  return {
    definition,
    timeoutMs: BROWSER_TOOL_TIMEOUT_MS,
    handler: async (_args, context) => {
      // Registered before the card says "waiting": a tab that answers at once must find the call waiting.
      const answered = new Promise<BrowserToolAnswer>((resolve) => {
        addPendingBrowserCall(options.jobId, context.callId, { toolName: definition.function.name, resolve })
      })
      try {
        context.status(WAITING_FOR_BROWSER)
        await options.onWaiting(true)
        const answer = await answered
        if (!answer.ok && answer.cancelled) throw new ToolCancelledError({ toolName: definition.function.name, reason: answer.message })
        if (!answer.ok) throw new Error(answer.message)
        return answer.content
      }
      finally {
        removePendingBrowserCall(options.jobId, context.callId)
        await options.onWaiting(false)
      }
    },
  }
}
