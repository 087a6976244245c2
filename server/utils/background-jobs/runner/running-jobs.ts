/** A browser tool call a paused job waits for. */
export interface PendingBrowserCall {
  toolName: string
  resolve: (answer: BrowserToolAnswer) => void
}

/** What a tab sends back for a browser-only tool: its result text, or that it failed. */
export type BrowserToolAnswer = { ok: true, content: string } | { ok: false, message: string, cancelled?: true }

interface RunningJob {
  controller: AbortController
  pendingCalls: Map<string, PendingBrowserCall>
}

/**
 * The jobs this process is running, with what only the running process holds: the AbortController that Stop
 * fires and the browser tool calls it waits for. Job state itself lives in the JobStore.
 */
const running = new Map<string, RunningJob>()

/** Registers a job as running here; returns its controller. */
export function trackRunningJob(jobId: string): AbortController {
  const job: RunningJob = { controller: new AbortController(), pendingCalls: new Map() }
  running.set(jobId, job)
  return job.controller
}

export function forgetRunningJob(jobId: string): void {
  running.delete(jobId)
}

/** Whether the job runs in this process. */
export function isRunningHere(jobId: string): boolean {
  return running.has(jobId)
}

/** Aborts a job running in this process (its loop ends 'aborted'); false when it runs nowhere here. */
export function abortRunningJob(jobId: string): boolean {
  const job = running.get(jobId)
  if (!job) return false
  job.controller.abort(new Error('Stopped by the user.'))
  return true
}

/** Remembers a browser tool call the job now waits for. */
export function addPendingBrowserCall(jobId: string, callId: string, call: PendingBrowserCall): void {
  running.get(jobId)?.pendingCalls.set(callId, call)
}

export function removePendingBrowserCall(jobId: string, callId: string): void {
  running.get(jobId)?.pendingCalls.delete(callId)
}

/** Hands a tab's answer to the waiting call; false when no such call waits (already answered, or unknown). */
export function answerBrowserCall(jobId: string, callId: string, answer: BrowserToolAnswer): boolean {
  const call = running.get(jobId)?.pendingCalls.get(callId)
  if (!call) return false
  running.get(jobId)!.pendingCalls.delete(callId)
  call.resolve(answer)
  return true
}
