import type { ToolApprovalAnswer } from '#shared/loop/tool-approval'
import { parseToolArguments, validateToolArguments } from '#shared/tools/validate-tool-arguments'
import type { ToolSchema } from '#shared/tools/validate-tool-arguments'
import { onAbort } from '#shared/stream/on-abort'
import type { CodedText } from '#shared/errors/coded-text'
import { serverText } from '#shared/errors/server-messages'

interface WaitingCall {
  toolName: string
  /** The tool's parameters schema, to check edited arguments before they are accepted. */
  schema?: ToolSchema
  resolve: (answer: ToolApprovalAnswer) => void
}

/**
 * The tool calls background chats of this process wait on for the user's Allow once / Always allow / Deny, by job
 * and call id. Only the process running the job holds the wait (like a browser-only tool's): the answer route
 * hands it over here.
 */
const waiting = new Map<string, Map<string, WaitingCall>>()

export interface WaitForJobApprovalOptions {
  jobId: string
  callId: string
  toolName: string
  schema?: ToolSchema
  /** Stop: rejects the wait. */
  signal: AbortSignal
  /** Past it the wait ends with `{ decision: 'no-answer' }` (`NUXT_JOB_WAIT_TIMEOUT_MS`). */
  timeoutMs: number
}

/** Waits for the answer to one call, at most `timeoutMs`: then the answer is 'no-answer'. */
export function waitForJobApproval(options: WaitForJobApprovalOptions): Promise<ToolApprovalAnswer> {
  const { jobId, callId, signal } = options
  return new Promise((resolve, reject) => {
    const calls = waiting.get(jobId) ?? new Map<string, WaitingCall>()
    waiting.set(jobId, calls)
    const timer = setTimeout(() => {
      done()
      resolve({ decision: 'no-answer' })
    }, options.timeoutMs)
    const done = () => {
      clearTimeout(timer)
      calls.delete(callId)
      if (calls.size === 0 && waiting.get(jobId) === calls) waiting.delete(jobId)
      stopListening()
    }
    const abort = () => {
      done()
      reject(signal.reason)
    }
    let stopListening = () => {}
    if (signal.aborted) return abort()
    // One dispatcher on the run's signal for every call of the step that waits here (onAbort), not one each.
    stopListening = onAbort(signal, abort)
    calls.set(callId, {
      toolName: options.toolName,
      schema: options.schema,
      resolve: (answer) => {
        done()
        resolve(answer)
      },
    })
  })
}

export type AnswerJobApprovalResult = { ok: true } | { ok: false, reason: 'not-waiting' } | { ok: false, reason: 'invalid', message: string, text: CodedText }

function invalidArguments(reason: string): AnswerJobApprovalResult {
  const text = serverText('server.job.badArguments', { reason })
  return { ok: false, reason: 'invalid', message: text.message, text }
}

/**
 * Hands the user's answer to the waiting call. Edited arguments that are not a JSON object or break the tool's
 * schema are refused (the call keeps waiting); an unknown or already answered call is 'not-waiting'.
 */
export function answerJobApproval(jobId: string, callId: string, answer: ToolApprovalAnswer): AnswerJobApprovalResult {
  const call = waiting.get(jobId)?.get(callId)
  if (!call) return { ok: false, reason: 'not-waiting' }
  if (answer.decision !== 'denied' && answer.arguments !== undefined) {
    const parsed = parseToolArguments(answer.arguments)
    if (!parsed.ok) return invalidArguments(parsed.error)
    if (call.schema !== undefined) {
      const check = validateToolArguments(call.toolName, call.schema, parsed.value, { textLength: answer.arguments.length })
      if (!check.valid) return invalidArguments(check.error.message)
    }
  }
  call.resolve(answer)
  return { ok: true }
}
