import type { ToolDefinition } from '#shared/types/chat'
import { WAITING_FOR_BROWSER } from '#shared/types/background-chats'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { ToolCancelledError } from '#shared/errors/tool-cancelled-error'
import { addPendingBrowserCall, removePendingBrowserCall } from './running-jobs'
import type { BrowserToolAnswer } from './running-jobs'


export interface BrowserToolOptions {
  jobId: string
  /** Told when the job starts and stops waiting: its record says 'paused' / 'running', its slot is parked. */
  onWaiting: (waiting: boolean) => Promise<void> | void
  /** How long the call waits for a tab before it fails as timed out (`NUXT_JOB_WAIT_TIMEOUT_MS`). */
  waitTimeoutMs: number
}

/**
 * A tool the server cannot run (it lives in the user's tab): its handler parks the call with the card saying
 * "waiting for this browser" until a tab of the session answers through POST /api/chats/:id/tool-results (on any instance: the answer
 * reaches this one through the job control), the user cancels the call there (it ends 'cancelled'), the job is
 * stopped (the executor then cancels the call), or nobody answers within the wait limit (it ends 'timeout').
 */
export function browserTool(definition: ToolDefinition, options: BrowserToolOptions): ExecutableTool {
  return {
    definition,
    timeoutMs: options.waitTimeoutMs,
    handler: async (_args, context) => {
      // Registered before the card says "waiting": a tab that answers at once must find the call waiting.
      const answered = new Promise<BrowserToolAnswer>((resolve, reject) => {
        addPendingBrowserCall(options.jobId, context.callId, { toolName: definition.function.name, resolve })
        // Stop or the wait limit: the executor has ended the call already; this handler stops waiting, so its
        // `finally` tells the job it waits no more (and the job takes its slot again).
        context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true })
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
