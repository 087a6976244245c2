import type { QuickJSRunner } from './quickjs-runner'
import type { UserToolWorkerRequest, UserToolWorkerResponse } from './user-tool-messages'

/** Console lines shown on the tool card while the call finishes (the editor's test run shows them all). */
const STATUS_MAX_CHARS = 300

/**
 * What a user tool's worker does with one request: posts the console output as a `status`, then returns the one
 * answer. Kept apart from the worker's entry so Node tests drive the same code with a stand-in worker.
 */
export async function answerUserToolRequest(
  runner: QuickJSRunner,
  request: UserToolWorkerRequest,
  post: (message: UserToolWorkerResponse) => void,
): Promise<UserToolWorkerResponse> {
  if (request.type === 'check') return { type: 'checked', problem: await runner.checkSyntax(request.code) }
  const outcome = await runner.run({ code: request.code, args: request.args, timeoutMs: request.timeoutMs, startedAt: request.startedAt })
  if (outcome.logs.length) {
    const text = outcome.logs.join(' · ')
    post({ type: 'status', text: text.length > STATUS_MAX_CHARS ? `${text.slice(0, STATUS_MAX_CHARS)}…` : text })
  }
  return outcome.ok
    ? { type: 'result', value: outcome.value, logs: outcome.logs, droppedLogs: outcome.droppedLogs }
    : { type: 'error', ...outcome.error, logs: outcome.logs, droppedLogs: outcome.droppedLogs }
}
